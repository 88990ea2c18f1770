#include "app/audit_verify_command.h"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>

#include "audit/audit_chain.h"

namespace voxl::app {
namespace {

constexpr int kVerifyBroken = 1;
constexpr int kVerifyMistake = 2;
constexpr size_t kVerifyChunk = 8 << 20;  // read this much at a time, cut at a line's end

constexpr const char* kVerifyUsage =
    "usage: voxl audit-verify FILE...\n"
    "Checks audit logs written by --audit-log: each line's hash, and each line against the one before.\n"
    "Give rotated files oldest first (log.2 log.1 log) to check the chain across them.\n";

struct FileCheck {
  bool ok = true;
  size_t lines = 0;
  size_t bad_line = 0;
  std::string reason;
  bool started_fresh = false;
  audit::ChainState end;
};

// The file in pieces of whole lines, each checked after the one before.
std::optional<FileCheck> check_file(const std::string& path, std::optional<audit::ChainState> from,
                                    std::string& error) {
  std::ifstream in(std::filesystem::path(std::u8string(path.begin(), path.end())), std::ios::binary);
  if (!in) {
    error = "cannot be read";
    return std::nullopt;
  }
  FileCheck f;
  std::string carry;
  std::string buf(kVerifyChunk, '\0');
  bool first = true;
  for (;;) {
    in.read(buf.data(), std::streamsize(buf.size()));
    const size_t got = size_t(in.gcount());
    std::string text = std::move(carry);
    text.append(buf.data(), got);
    const bool end = got < buf.size();
    size_t cut = end ? text.size() : text.rfind('\n');
    if (cut == std::string::npos) {
      if (text.size() > 2 * audit::kMaxLine) {
        f.ok = false;
        f.bad_line = f.lines + 1;
        f.reason = "it is longer than any audit line";
        return f;
      }
      carry = std::move(text);
      continue;
    }
    if (!end) ++cut;  // keep the "\n"
    carry = text.substr(cut);
    const audit::ChainCheck c = audit::check_chain(std::string_view(text).substr(0, cut), from);
    if (first) f.started_fresh = c.started_fresh;
    first = false;
    if (!c.ok) {
      f.ok = false;
      f.bad_line = f.lines + c.bad_line;
      f.reason = c.reason;
      return f;
    }
    f.lines += c.lines;
    if (c.lines > 0) {
      from = c.end;
      f.end = c.end;
    }
    if (end) return f;
  }
}

}  // namespace

int audit_verify_command(std::span<char* const> args) {
  if (args.empty()) {
    std::cerr << kVerifyUsage;
    return kVerifyMistake;
  }
  if (std::string(args[0]) == "-h" || std::string(args[0]) == "--help") {
    std::cout << kVerifyUsage;
    return 0;
  }
  std::optional<audit::ChainState> from;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string path = args[i];
    std::string error;
    const auto f = check_file(path, from, error);
    if (!f) {
      std::cerr << "voxl audit-verify: " << path << ": " << error << "\n";
      return kVerifyMistake;
    }
    if (!f->ok) {
      std::cout << path << ": line " << f->bad_line << ": " << f->reason << "\n";
      std::cout << path << ": BROKEN (" << f->lines << " good lines before it)\n";
      return kVerifyBroken;
    }
    std::cout << path << ": " << f->lines << " line" << (f->lines == 1 ? "" : "s") << ", intact";
    if (i == 0 && f->lines > 0 && !f->started_fresh)
      std::cout << " (it goes on from an earlier file, not given here)";
    std::cout << "\n";
    if (f->lines > 0) from = f->end;
  }
  return 0;
}

}  // namespace voxl::app
