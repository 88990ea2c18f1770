#include "endpoints/record_file.h"

#include <algorithm>
#include <exception>
#include <thread>
#include <utility>

namespace voxl::endpoints {

namespace {

// Deletes a recording's file on the disk's thread: inline there (or when
// the disk is gone), through a job from anywhere else.
struct ReleaseOnDisk {
  std::weak_ptr<RecordDisk> disk;
  std::thread::id worker;

  void operator()(platform::OwnedFile* f) const {
    if (std::this_thread::get_id() != worker) {
      // Never locked on the worker: a reference held there could be the
      // last, and the worker cannot join itself.
      if (const auto d = disk.lock()) {
        // Owned by the job, run or dropped unrun.
        (void)d->submit([owned = std::shared_ptr<platform::OwnedFile>(f)] {}, 0, RecordDisk::Kind::kAlways);
        return;
      }
    }
    delete f;
  }
};

}  // namespace

RecordFile::RecordFile(std::weak_ptr<RecordDisk> disk, RecordDiskOps ops, std::string dir, uint64_t min_free_bytes)
    : disk_(std::move(disk)), ops_(std::move(ops)), dir_(std::move(dir)), min_free_(min_free_bytes) {}

void RecordFile::failed(int status, std::string error) {
  if (status_ != 200) return;  // the first one counts
  status_ = status;
  error_ = std::move(error);
}

RecordFile::Opened RecordFile::open() {
  Opened r;
  try {
    r.free = ops_.free_in(dir_);
    if (r.free && *r.free < min_free_) {
      r.status = Opened::Status::kLowDisk;
      failed(507, "the temporary folder's disk is low");
      return r;
    }
    platform::OwnedFile f = ops_.make_in(dir_, r.error);
    if (!f.valid()) {
      r.status = Opened::Status::kNoFile;
      failed(503, r.error);
      return r;
    }
    file_ = std::shared_ptr<platform::OwnedFile>(new platform::OwnedFile(std::move(f)),
                                                 ReleaseOnDisk{disk_, std::this_thread::get_id()});
  } catch (const std::exception& e) {
    r.status = Opened::Status::kNoFile;
    r.error = std::string("cannot make the recording's file: ") + e.what();
    failed(503, r.error);
  }
  return r;
}

RecordFile::Written RecordFile::write(const std::vector<Item>& items) {
  Written w;
  try {
    for (const Item& item : items) {
      if (status_ != 200 || stopped_ || finished_ || !file_) break;
      if (item.look) {
        w.free = ops_.free_in(dir_);
        if (w.free && *w.free < min_free_) {
          stopped_ = true;
          stopped_us_ = item.time_us;
          stopped_at_ = item.at;
          w.low_disk_at = item.at;
          break;
        }
      }
      if (!writer_) writer_.emplace(file_->get(), item.frame->size);
      if (!writer_->add(item.frame->data, item.frame->key, item.time_us)) {
        failed(500, writer_->error());
        w.error = writer_->error();
        break;
      }
    }
  } catch (const std::exception& e) {
    failed(500, std::string("cannot write the recording: ") + e.what());
    w.error = error_;
  }
  return w;
}

RecordFile::Finished RecordFile::finish(int64_t end_us, const std::string& reason) {
  Finished r;
  finished_ = true;
  try {
    if (status_ == 200 && (!writer_ || writer_->frames() == 0))
      failed(507, "the recording ended (" + (stopped_ ? std::string("low-disk-space") : reason) +
                      ") before its first picture was written");
    if (stopped_) end_us = std::min(end_us, stopped_us_);
    if (status_ == 200 && !writer_->finish(end_us)) failed(500, writer_->error());
  } catch (const std::exception& e) {
    failed(500, std::string("cannot finish the recording: ") + e.what());
  }
  if (status_ != 200) {
    r.status = status_;
    r.error = error_;
    return r;
  }
  r.file = file_;
  r.frames = writer_->frames();
  r.bytes = writer_->bytes();
  if (stopped_) r.low_disk_at = stopped_at_;
  return r;
}

}  // namespace voxl::endpoints
