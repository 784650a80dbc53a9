/// A status line payload shaped as Claude Code writes it: every field its status line documentation lists
/// (`hook_event_name`, session, paths, model, workspace, version, output style, cost, context window,
/// effort, thinking, `rate_limits` with `five_hour` and `seven_day`, vim, agent, worktree), with a canary in
/// each free-text field. Its limits: 5 hours 23.5 % used, resetting 2026-03-10T15:00Z; 7 days 41 %, resetting
/// 2026-03-14T00:00Z.
public enum StatusLineSample: Sendable {
    public static let claudeCode = #"""
        {
          "hook_event_name": "Status",
          "session_id": "CANARY-3f1c2a9e",
          "session_name": "CANARY session title",
          "transcript_path": "/home/CANARY/.claude/projects/-home-CANARY-project/3f1c2a9e.jsonl",
          "cwd": "/home/CANARY/project",
          "model": { "id": "claude-opus-4-1", "display_name": "Opus CANARY" },
          "workspace": {
            "current_dir": "/home/CANARY/project",
            "project_dir": "/home/CANARY/project",
            "added_dirs": ["/home/CANARY/other"],
            "git_worktree": "/home/CANARY/project-feature"
          },
          "version": "2.1.90",
          "output_style": { "name": "CANARY-style" },
          "cost": {
            "total_cost_usd": 0.01234,
            "total_duration_ms": 45000,
            "total_api_duration_ms": 2300,
            "total_lines_added": 156,
            "total_lines_removed": 23
          },
          "context_window": {
            "total_input_tokens": 15234,
            "total_output_tokens": 4521,
            "context_window_size": 200000,
            "used_percentage": 8,
            "remaining_percentage": 92,
            "current_usage": {
              "input_tokens": 8500,
              "output_tokens": 1200,
              "cache_creation_input_tokens": 5000,
              "cache_read_input_tokens": 2000
            }
          },
          "exceeds_200k_tokens": false,
          "effort": { "level": "high" },
          "thinking": { "enabled": true },
          "rate_limits": {
            "five_hour": { "used_percentage": 23.5, "resets_at": 1773154800 },
            "seven_day": { "used_percentage": 41, "resets_at": 1773446400 }
          },
          "vim": { "mode": "NORMAL" },
          "agent": { "name": "CANARY-reviewer" },
          "worktree": {
            "name": "CANARY-feature",
            "path": "/home/CANARY/.claude/worktrees/CANARY-feature",
            "branch": "worktree-CANARY-feature",
            "original_cwd": "/home/CANARY/project",
            "original_branch": "CANARY-main"
          }
        }
        """#
}
