// What FilesService (files/files_service.h) keeps and its handlers share:
// the jail, the options, the uploads in progress, the disk worker and the
// timers, with every handler of the /files endpoints as a member. Private
// to the service's files; its members are defined by topic:
//   files_service.cpp       the request gates, GET /files, construction
//   download_endpoints.cpp  GET /files/list and /files/download
//   upload_endpoints.cpp    /files/upload: announce, chunks, completion, cancel
//   partial_files.cpp       removing partial files, expiry, orphans of a past run
//
// Threads: the loop thread; the jobs off_loop() hands the disk worker run
// on its thread, and their answers come back on the loop. Lifetime: owned
// by the FilesService (shared, so that late answers find it gone).
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "net/query.h"
#include "files/disk_job.h"
#include "files/files_service.h"

namespace voxl::files {

struct FilesService::State : std::enable_shared_from_this<FilesService::State> {
  State(boost::asio::io_context& context, std::unique_ptr<platform::FileJail> j, FilesOptions o, Logger l,
        std::unique_ptr<DiskWorker> w)
      : io(context), jail(std::move(j)), options(std::move(o)), log(std::move(l)),
        uploads(options.max_uploads, options.upload_expiry), expiry_timer(context), worker(std::move(w)) {}

  boost::asio::io_context& io;
  std::unique_ptr<platform::FileJail> jail;
  FilesOptions options;
  Logger log;
  UploadTable uploads;
  boost::asio::steady_timer expiry_timer;
  std::unique_ptr<DiskWorker> worker;
  // DELETEs waiting on a completion in progress, by upload id (at most one each).
  std::map<std::string, net::ReplyFn> cancels_waiting;
  // Partial files to remove that the worker's full queue refused.
  std::deque<std::string> removals_owed;
  boost::asio::steady_timer removal_timer{io};
  bool removal_retry_armed = false;

  // Runs `job` on the worker, then `done(result)` on the loop if this
  // service still exists (files/disk_job.h). False when the queue is full.
  template <class Result, class Job, class Done>
  [[nodiscard]] bool off_loop(Job job, Done done) {
    return run_disk_job<Result>(*worker, io, weak_from_this(), std::move(job), std::move(done));
  }

  // --- gates (files_service.cpp) -------------------------------------------

  // Who may use files at all: full viewers on this site's pages.
  static bool admitted(const net::EndpointRequest& req, net::ReplyFn& reply);
  // The server allows the direction (`on`) and the user has its right.
  bool direction(const net::EndpointRequest& req, bool on, net::Right right, const char* what,
                 net::ReplyFn& reply) const;
  static std::optional<net::Query> query(const net::EndpointRequest& req, const std::vector<std::string>& known,
                                               net::ReplyFn& reply);
  static std::optional<std::string> path_param(const net::Query& q, net::ReplyFn& reply);
  void busy(net::ReplyFn& reply) const;

  // --- GET /files (files_service.cpp) --------------------------------------

  net::CancelFn caps(const net::EndpointRequest& req, net::ReplyFn reply);

  // --- GET /files/list (download_endpoints.cpp) ----------------------------

  struct Listing {
    platform::JailStatus status;
    std::vector<platform::DirEntry> entries;
    bool truncated = false;
  };

  net::CancelFn list(const net::EndpointRequest& req, net::ReplyFn reply);
  static net::EndpointReply listing_reply(const std::string& rel, Listing l);

  // --- GET /files/download (download_endpoints.cpp) ------------------------

  struct Opened {
    platform::JailStatus status;
    platform::FileInfo info;
    std::shared_ptr<platform::OwnedFile> file;  // a regular file; null for a folder
  };

  net::CancelFn download(const net::EndpointRequest& req, net::ReplyFn reply);
  net::EndpointReply file_reply(const std::string& rel, Opened o, bool head, const std::optional<std::string>& range,
                                const std::optional<std::string>& if_range, const std::string& remote);
  net::EndpointReply zip_reply(const std::string& rel, bool head, const std::string& remote);

  // --- /files/upload (upload_endpoints.cpp) --------------------------------

  // The chunk's body is moved to the disk worker, not copied.
  net::CancelFn upload(net::EndpointRequest& req, net::ReplyFn reply);

  struct Begun {
    platform::JailStatus status;
    std::string where;  // what the status is about
    std::shared_ptr<platform::OwnedFile> file;
  };

  net::CancelFn announce(const net::EndpointRequest& req, net::ReplyFn reply);
  // A 507 when the disk cannot take `bytes` more besides what uploads in
  // progress announced and the reserve; nullopt when it can (or cannot tell).
  std::optional<net::EndpointReply> space_for(uint64_t bytes) const;

  struct Written {
    platform::JailStatus status;
    std::string error;  // a write the system refused
  };

  net::CancelFn chunk(Upload& u, const net::Query& q, net::EndpointRequest& req, net::ReplyFn reply);

  struct Placed {
    platform::JailStatus status;
    std::string name;        // relative to the root
    bool withdrawn = false;  // cancelled before the rename: the partial file is removed
  };

  // Every byte is written: flush, then rename into place under the first
  // free name.
  void complete(Upload& u, net::ReplyFn reply);
  // The completion's answer, and the answer of a DELETE that came while it ran.
  void placed(const std::string& id, Placed p, net::ReplyFn reply);
  static net::EndpointReply no_content();
  net::CancelFn cancel(Upload& u, net::ReplyFn reply);
  void drop(Upload& u, net::ReplyFn reply, int status, const std::string& why);

  // --- partial files (partial_files.cpp) -----------------------------------

  // Removes a partial file on the worker; when its queue is full, the
  // removal is owed and retried until it is taken (at the latest by the
  // destructor).
  void remove_partial(const std::string& partial);
  bool submit_removal(const std::string& partial);
  void arm_removal_retry();
  // At the end, with the worker gone: what is still owed is removed here.
  void settle_removals();
  void arm_expiry();
  void on_expiry();
  // Partial files a run before this one left in the upload folder, older
  // than the expiry: nobody can resume them any more.
  void sweep_orphans();
};

}  // namespace voxl::files
