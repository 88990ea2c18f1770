// The disk side of one recorded session (sessions/session_files.h has the
// layout): its folder and head, its events file, and sealing each finished
// segment (its sidecar written and flushed, then its MP4 renamed into
// place) or discarding one that failed. The segments' MP4s themselves are
// written by endpoints::RecordFile, as /record's are.
//
// Threads: every method on the recorder's disk thread (made on the loop,
// handed over in jobs). Blocking: all of them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "platform/file_jail.h"
#include "platform/owned_file.h"
#include "sessions/session_files.h"

namespace voxl::sessions {

class SessionDisk {
 public:
  SessionDisk(std::shared_ptr<const platform::FileJail> jail, SessionHead head);

  // Makes the session's folder, its head and its events file; false with
  // `error` when it cannot.
  bool begin(std::string& error);
  // Appends event lines; false with `error` when the write failed (the
  // lines are lost; the file is cut back to where it was).
  bool append(const std::string& lines, std::string& error);
  // The finished segment's MP4 (`mp4`, still open) flushed, its sidecar
  // written and flushed, then NNNN.mp4.part renamed NNNN.mp4. On failure
  // the part and any sidecar are removed and `error` says why.
  bool seal(const platform::OwnedFile& mp4, const SegmentInfo& info, std::string& error);
  // A segment that failed: its part (and sidecar, if any) removed.
  void discard(int index);

  const std::string& id() const { return head_.id; }

 private:
  bool write_new(const std::string& rel, const std::string& text, std::string& error);

  std::shared_ptr<const platform::FileJail> jail_;
  SessionHead head_;
  platform::OwnedFile events_;
};

}  // namespace voxl::sessions
