// The rules for a path that a viewer names: a location beneath the files
// root, given as text (already percent-decoded once, never again). Pure;
// any thread. The kernel has the last word (platform/file_jail.h): these
// rules turn away what is plainly wrong with a clear message, and keep the
// jail's input to one simple form.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace voxl::files {

constexpr size_t kMaxNameBytes = 255;
constexpr size_t kMaxPathBytes = 4096;
// Upload partial files start with this; no viewer may name one.
constexpr std::string_view kPartialPrefix = ".voxl-upload-";

// A path to look at: "" (the root) or names joined by '/'. A leading or
// trailing '/' and repeated '/' are tolerated and dropped ("/a//b/" is
// "a/b"); refused, with `why` set: NUL, '\', "." or ".." as a name, a name
// over 255 bytes, a path over 4096 bytes, text that is not UTF-8, C0
// controls and DEL.
std::optional<std::string> parse_relative_path(std::string_view text, std::string& why);

// A path to create (an upload's): as above, and besides not empty, no name
// that starts with kPartialPrefix, ends with a space or a dot (ambiguous
// names that other systems drop), or is only spaces.
std::optional<std::string> parse_new_path(std::string_view text, std::string& why);

// "a/b" + "c" -> "a/b/c"; "" + "c" -> "c".
std::string join_path(const std::string& dir, const std::string& name);

// The last name of a path ("" for the root).
std::string last_name(const std::string& rel);

// The folder part of a path ("" when it has none).
std::string parent_path(const std::string& rel);

// The n-th free name to try for `name` (n >= 1): "report.pdf" ->
// "report (1).pdf", "archive.tar.gz" -> "archive (1).tar.gz", ".bashrc" ->
// ".bashrc (1)", "notes" -> "notes (1)". Kept within kMaxNameBytes by
// shortening the stem at a UTF-8 boundary.
std::string numbered_name(const std::string& name, int n);

}  // namespace voxl::files
