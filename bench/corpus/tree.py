"""Writes a corpus's files under its root and counts what was written."""
import os


class Tree:
    def __init__(self, root, expected):
        self.root = root
        self.expected = expected
        self.bytes = 0

    def write(self, relative, lines, mtime_ms):
        """One log file (`lines` without their newlines), its modification time set to its last record's."""
        path = os.path.join(self.root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        data = ("\n".join(lines) + "\n").encode("utf-8")
        with open(path, "wb") as f:
            f.write(data)
        os.utime(path, ns=(mtime_ms * 1_000_000, mtime_ms * 1_000_000))
        self.bytes += len(data)
        e = self.expected
        e.count("files")
        e.count("lines", len(lines))
        e.count("bytes", len(data))
        longest = max(map(len, lines))
        if longest > e.stats.get("longestLineChars", 0):
            e.stats["longestLineChars"] = longest

    def write_other(self, relative, text):
        """A file that is not a log (a subagent's .meta.json): not counted in bytes or lines."""
        path = os.path.join(self.root, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
