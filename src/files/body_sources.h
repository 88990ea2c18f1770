// The bodies of downloads, read on the disk worker piece by piece while
// the session writes them: a byte range of an open file, and a folder as
// a zip built on the fly (files/zip_stream.h).
//
// Threads: pull() on the loop thread; the reads run on `worker`, and the
// piece is delivered on the loop through `io`. A source dropped while a
// read is in flight stays alive until the read ends (the job holds it),
// and its delivery then goes to a session that ignores it.
#pragma once

#include <boost/asio/io_context.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "files/disk_worker.h"
#include "net/endpoint.h"
#include "platform/file_jail.h"

namespace voxl::files {

// `length` bytes of `file` from `first`. A null file (a HEAD request) makes
// a source that is never pulled.
std::shared_ptr<net::BodySource> make_file_source(boost::asio::io_context& io, DiskWorker& worker,
                                                  std::shared_ptr<platform::OwnedFile> file, uint64_t first,
                                                  uint64_t length);

// The folder `folder` beneath `jail`'s root as a zip; nullopt (a HEAD
// request) makes a source that is never pulled. The jail and the worker
// must outlive the source's reads (the service joins the worker first).
std::shared_ptr<net::BodySource> make_zip_source(boost::asio::io_context& io, DiskWorker& worker,
                                                 const platform::FileJail& jail, std::optional<std::string> folder);

}  // namespace voxl::files
