// A folder beneath a FileJail's root, as a zip made while it is sent: the
// caller pulls the archive piece by piece and never holds more than about
// one piece of file data in memory (plus the zip's central directory,
// which the format puts at the end and so has to be kept until then: some
// 100 bytes per entry).
//
// The folder is walked depth first through the jail only (list() for
// folders, open_read() for files), so nothing outside the root is read,
// whatever the symlinks say. Inside the zip:
//  - names are relative to the zipped folder, folders end in '/', and
//    names are flagged as UTF-8; a name that is not valid UTF-8 (or is too
//    long for a zip) is left out and counted in skipped_names();
//  - files are stored with their modification time, uncompressed: the
//    machine's CPU belongs to the video encoder, and most large files
//    (video, images, archives) are compressed already;
//  - entries the jail calls kOther (a symlink out of the root or to
//    nothing, a device, a socket, a pipe), files or folders that vanished
//    or cannot be opened, and folder symlinks that lead back to a folder
//    being walked are left out and counted in skipped_other();
//  - a file whose size changes while it is read gets exactly the size it
//    had when it was opened: cut there if it grew, padded with zero bytes
//    if it shrank, so the archive stays well formed;
//  - Zip64 records are used where the sizes, offsets or the number of
//    entries need them (files of 4 GiB and more, archives past 4 GiB,
//    more than 65535 entries), and only there.
//
// Limits: more than `max_entries` names met while walking (skipped ones
// included), or a folder nested more than `max_depth` levels below the
// zipped one, fail the stream with an error rather than truncate it: a
// download that is silently incomplete would be worse than one that fails.
// The error arrives part way through the body; the caller then drops the
// connection, so the client sees a cut-off download.
//
// Threads: one thread at a time (meant for a disk worker); next() blocks on
// the disk. Ownership: the jail is borrowed and must outlive the stream.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "platform/file_jail.h"

namespace voxl::files {

struct ZipLimits {
  size_t max_entries = 100000;
  size_t max_depth = 64;
};

class ZipStream {
 public:
  // The most bytes one piece holds.
  static constexpr size_t kMaxPieceBytes = 128 * 1024;

  struct Piece {
    // The next bytes of the zip, valid until the next call to next() or the
    // stream's destruction. Empty only with `done` or an error.
    std::string_view bytes;
    bool done = false;   // the zip is complete and `bytes` is empty
    std::string error;   // non-empty: the zip cannot be completed; no more bytes follow
  };

  // `folder` is the folder's path relative to the jail's root, already
  // checked (files/relative_path.h); "" is the root itself. Nothing is read
  // until the first next().
  ZipStream(const platform::FileJail& jail, std::string folder, ZipLimits limits = {});
  ~ZipStream();
  ZipStream(const ZipStream&) = delete;
  ZipStream& operator=(const ZipStream&) = delete;

  // Blocks until the next piece is ready. After `done` or an error, every
  // further call returns the same again.
  Piece next();

  // Entries written so far (folders and files).
  size_t entries() const;
  // Names left out for not being valid UTF-8 or being too long.
  size_t skipped_names() const;
  // Entries left out for what they are or because they could not be read.
  size_t skipped_other() const;
  // Bytes of the zip handed out so far.
  uint64_t bytes_out() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace voxl::files
