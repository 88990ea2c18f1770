#include "files/body_sources.h"

#include <boost/asio/post.hpp>

#include "files/zip_stream.h"

namespace voxl::files {

namespace asio = boost::asio;

namespace {

constexpr size_t kFilePiece = 256 * 1024;

// What a read on the worker hands back to the loop.
struct Read {
  std::string_view bytes;
  bool done = false;
  std::string error;
};

class FileSource final : public net::BodySource, public std::enable_shared_from_this<FileSource> {
 public:
  FileSource(asio::io_context& io, DiskWorker& worker, std::shared_ptr<platform::OwnedFile> file, uint64_t first,
             uint64_t length)
      : io_(io), worker_(worker), file_(std::move(file)), offset_(first), left_(length) {}

  void pull(Deliver deliver) override {
    if (!file_ || left_ == 0) return deliver({}, true, "");
    auto self = shared_from_this();
    const bool queued = worker_.submit([self, deliver]() mutable {
      Read r = self->read();
      asio::post(self->io_, [self, deliver = std::move(deliver), r = std::move(r)] { deliver(r.bytes, r.done, r.error); });
    });
    if (!queued) deliver({}, false, "the disk is busy with other transfers");
  }

 private:
  // On the worker.
  Read read() {
    Read r;
    buffer_.resize(size_t(std::min<uint64_t>(left_, kFilePiece)));
    size_t got = 0;
    if (!platform::read_at(file_->get(), buffer_.data(), buffer_.size(), offset_, got, r.error)) return r;
    if (got == 0) {
      r.error = "the file got shorter while it was being sent";
      return r;
    }
    offset_ += got;
    left_ -= got;
    r.bytes = std::string_view(buffer_.data(), got);
    r.done = left_ == 0;
    return r;
  }

  asio::io_context& io_;
  DiskWorker& worker_;
  std::shared_ptr<platform::OwnedFile> file_;
  uint64_t offset_;
  uint64_t left_;
  std::string buffer_;
};

class ZipSource final : public net::BodySource, public std::enable_shared_from_this<ZipSource> {
 public:
  ZipSource(asio::io_context& io, DiskWorker& worker, const platform::FileJail& jail, std::optional<std::string> folder)
      : io_(io), worker_(worker) {
    if (folder) zip_ = std::make_unique<ZipStream>(jail, std::move(*folder));
  }

  void pull(Deliver deliver) override {
    if (!zip_) return deliver({}, true, "");
    auto self = shared_from_this();
    const bool queued = worker_.submit([self, deliver]() mutable {
      ZipStream::Piece p = self->zip_->next();
      Read r{p.bytes, p.done, std::move(p.error)};
      asio::post(self->io_, [self, deliver = std::move(deliver), r = std::move(r)] { deliver(r.bytes, r.done, r.error); });
    });
    if (!queued) deliver({}, false, "the disk is busy with other transfers");
  }

 private:
  asio::io_context& io_;
  DiskWorker& worker_;
  std::unique_ptr<ZipStream> zip_;
};

}  // namespace

std::shared_ptr<net::BodySource> make_file_source(asio::io_context& io, DiskWorker& worker,
                                                  std::shared_ptr<platform::OwnedFile> file, uint64_t first,
                                                  uint64_t length) {
  return std::make_shared<FileSource>(io, worker, std::move(file), first, length);
}

std::shared_ptr<net::BodySource> make_zip_source(asio::io_context& io, DiskWorker& worker,
                                                 const platform::FileJail& jail, std::optional<std::string> folder) {
  return std::make_shared<ZipSource>(io, worker, jail, std::move(folder));
}

}  // namespace voxl::files
