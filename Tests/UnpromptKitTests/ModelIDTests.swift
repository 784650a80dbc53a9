import XCTest

@testable import UnpromptKit

/// A model id keeps only a strict shape: paths and e-mail addresses in a model field never reach the store.
final class ModelIDTests: XCTestCase {
    func testModelIDPathsAndAddressesBecomeUnknownOrTheirBaseName() {
        let cases: [(logged: String, stored: String)] = [
            // Paths: a local model file keeps at most its base name.
            ("home/CANARY-user/CANARY-proj/model.gguf", "model.gguf"),
            ("/home/CANARY-user/models/llama-3-8b.Q4_K_M.gguf", "llama-3-8b.Q4_K_M.gguf"),
            ("../../home/CANARY-user/x", "x"),
            ("CANARY-proj/weights.safetensors", "weights.safetensors"),
            ("./CANARY.gguf", "CANARY.gguf"),
            ("~/CANARY/m.bin", "m.bin"),
            (#"C:\Users\CANARY\m.bin"#, "m.bin"),
            ("file:///home/CANARY/x", "x"),
            ("hf.co/CANARY-org/private:Q4", "private:Q4"),
            ("/home/CANARY-user/models/", "unknown"),
            ("/home/CANARY-user/my model.gguf", "unknown"),
            ("/home/CANARY/..", "unknown"),
            // E-mail addresses, free text, control and non-ASCII bytes, length.
            ("CANARY@corp.example.com", "unknown"),
            ("CANARY my secret prompt", "unknown"),
            ("x\u{1B}[31mCANARY\nforged line", "unknown"),
            ("CANARY\tx", "unknown"),
            ("claude-CANARY-\u{441}onnet", "unknown"),
            ("gpt-4+CANARY", "unknown"),
            ("CANARY-" + String(repeating: "a", count: 58), "unknown"),
            ("anthropic/" + String(repeating: "a", count: 55), "unknown"),
            ("a//b", "b"),
            ("anthropic/", "unknown"),
            ("...", "unknown"),
            ("", "unknown"),
            ("   ", "unknown"),
            // Ids of the allowed shape are kept as they are.
            ("  claude-sonnet-4-5-20250929  ", "claude-sonnet-4-5-20250929"),
            ("anthropic/claude-sonnet-4.5", "anthropic/claude-sonnet-4.5"),
            ("openrouter/deepseek/deepseek-v4-flash", "deepseek-v4-flash"),
            ("us.anthropic.claude-sonnet-4-20250514-v1:0", "us.anthropic.claude-sonnet-4-20250514-v1:0"),
            ("qwen2.5-coder:7b", "qwen2.5-coder:7b"),
            ("llama.gguf", "llama.gguf"),
            ("M-" + String(repeating: "a", count: 62), "M-" + String(repeating: "a", count: 62)),
        ]
        for (logged, stored) in cases {
            XCTAssertEqual(ModelID.sanitize(logged), stored, logged)
        }
    }
}
