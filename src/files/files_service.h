// File and folder transfer over HTTP: the Files panel's endpoints.
//
//   GET    /files                   what this server allows (directions, limits)
//   GET    /files/list?path=        a folder's entries
//   GET    /files/download?path=    a file (Range, If-Range, HEAD) or a folder as a zip built on the fly
//   POST   /files/upload            announce an upload: {"path": ..., "size": ...} -> its id
//   PUT    /files/upload?id=&offset=  the next chunk, at the confirmed offset
//   GET    /files/upload?id=        the confirmed offset (to resume)
//   DELETE /files/upload?id=        cancel; the partial file goes
//
// Every path goes through files/relative_path.h and then the kernel
// (platform/file_jail.h). View-only viewers and pages of other sites get
// 403 on every path here; --file-transfers is enforced per direction. An
// upload is written to a hidden partial file in the upload folder and
// renamed into place (never over an existing name) once all its bytes are
// written and flushed.
//
// Threads: construct, handle requests and destroy on the loop thread; the
// disk work runs on a DiskWorker of this service's own, which reports back
// by posting to the loop. Lifetime: outlives the server's sessions (a
// reply to a session that went is dropped by the session).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "base/logging.h"
#include "files/disk_worker.h"
#include "files/upload_table.h"
#include "net/endpoint.h"
#include "platform/file_jail.h"

namespace voxl::files {

struct FilesOptions {
  bool upload = true;
  bool download = true;
  std::string upload_dir = "Downloads";  // relative to the root; made on the first upload
  uint64_t max_upload_bytes = 0;         // 0: no limit
  uint64_t chunk_bytes = 1 << 20;        // the largest PUT body
  size_t max_uploads = 64;               // in progress at once
  std::chrono::steady_clock::duration upload_expiry = std::chrono::hours(1);
  size_t max_list_entries = 10000;
  // Room the disk keeps besides what uploads announced.
  uint64_t reserve_bytes = 16 << 20;
  std::function<std::string()> make_id;  // 32 unguessable hex digits
};

class FilesService {
 public:
  FilesService(boost::asio::io_context& io, std::unique_ptr<platform::FileJail> jail, FilesOptions options,
               Logger log);
  // With a disk worker of the caller's making (tests hold its thread or
  // fill its queue to reach the paths a busy disk takes).
  FilesService(boost::asio::io_context& io, std::unique_ptr<platform::FileJail> jail, FilesOptions options,
               Logger log, std::unique_ptr<DiskWorker> worker);
  ~FilesService();
  FilesService(const FilesService&) = delete;
  FilesService& operator=(const FilesService&) = delete;

  // The handlers; they refer to this object.
  net::EndpointTable endpoints();

 private:
  struct State;
  std::shared_ptr<State> state_;
};

}  // namespace voxl::files
