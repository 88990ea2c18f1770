#include "sessions/session_disk.h"

#include <utility>

#include "platform/append_file.h"

namespace voxl::sessions {

SessionDisk::SessionDisk(std::shared_ptr<const platform::FileJail> jail, SessionHead head)
    : jail_(std::move(jail)), head_(std::move(head)) {}

bool SessionDisk::write_new(const std::string& rel, const std::string& text, std::string& error) {
  platform::OwnedFile f;
  if (const auto st = jail_->create_new(rel, f); !st) {
    error = st.message;
    return false;
  }
  if (!platform::write_all(f.get(), text.data(), text.size(), error)) return false;
  if (const auto st = platform::FileJail::sync(f); !st) {
    error = st.message;
    return false;
  }
  return true;
}

bool SessionDisk::begin(std::string& error) {
  if (const auto st = jail_->make_dirs(head_.id); !st) {
    error = st.message;
    return false;
  }
  if (!write_new(head_.id + "/" + std::string(kHeadFile), head_text(head_), error)) return false;
  // The events file is appended to by this process only; opened by its
  // path, which is a folder this process made beneath the root.
  events_ = platform::open_append_file(jail_->root() + "/" + head_.id + "/" + std::string(kEventsFile), error);
  return events_.valid();
}

bool SessionDisk::append(const std::string& lines, std::string& error) {
  if (!events_.valid()) {
    error = "the events file is not open";
    return false;
  }
  uint64_t size = 0;
  const bool sized = platform::file_size(events_.get(), size, error);
  if (platform::write_all(events_.get(), lines.data(), lines.size(), error)) return true;
  std::string ignored;
  if (sized) (void)platform::truncate_file(events_.get(), size, ignored);
  return false;
}

bool SessionDisk::seal(const platform::OwnedFile& mp4, const SegmentInfo& info, std::string& error) {
  const std::string dir = head_.id + "/";
  if (const auto st = platform::FileJail::sync(mp4); !st) error = st.message;
  if (error.empty() && write_new(dir + segment_sidecar(info.index), sidecar_text(info), error)) {
    if (const auto st = jail_->rename_new(dir + segment_part(info.index), dir + segment_video(info.index)); st)
      return true;
    else
      error = st.message;
  }
  discard(info.index);
  return false;
}

void SessionDisk::discard(int index) {
  const std::string dir = head_.id + "/";
  (void)jail_->remove(dir + segment_part(index));
  (void)jail_->remove(dir + segment_sidecar(index));
}

}  // namespace voxl::sessions
