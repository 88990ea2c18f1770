#include "files/files_service.h"

#include <utility>

#include <nlohmann/json.hpp>

#include "base/json_text.h"
#include "files/files_state.h"
#include "files/relative_path.h"

namespace voxl::files {

namespace asio = boost::asio;
using json = nlohmann::json;
using net::CancelFn;
using net::EndpointReply;
using net::EndpointRequest;
using net::json_error;
using net::ReplyFn;

namespace {

constexpr size_t kMaxQueuedJobs = 256;

}  // namespace

// --- gates -------------------------------------------------------------------

bool FilesService::State::admitted(const EndpointRequest& req, ReplyFn& reply) {
  if (req.view_only) {
    reply(json_error(403, "", "view-only viewers cannot use files"));
    return false;
  }
  if (req.foreign_origin) {
    reply(json_error(403, "Origin", "requests from another site's pages are refused"));
    return false;
  }
  return true;
}

bool FilesService::State::direction(const EndpointRequest& req, bool on, net::Right right, const char* what,
                                    ReplyFn& reply) const {
  if (!on) {
    reply(json_error(403, "", std::string(what) + " are off on this server (--file-transfers)"));
    return false;
  }
  if (!req.rights.has(right)) {
    reply(json_error(403, "", std::string(what) + " are not among the rights of " +
                                  (req.user.empty() ? std::string("this sign-in") : req.user) + " (the users file)"));
    return false;
  }
  return true;
}

std::optional<net::Query> FilesService::State::query(const EndpointRequest& req,
                                                           const std::vector<std::string>& known, ReplyFn& reply) {
  return net::known_query(req, known, reply);
}

std::optional<std::string> FilesService::State::path_param(const net::Query& q, ReplyFn& reply) {
  const std::string* text = q.text("path");
  std::string why;
  auto rel = parse_relative_path(text ? *text : std::string(), why);
  if (!rel) reply(json_error(400, "path", why));
  return rel;
}

void FilesService::State::busy(ReplyFn& reply) const {
  reply(json_error(503, "", "the disk is busy with other transfers; try again shortly"));
}

// --- GET /files --------------------------------------------------------------

CancelFn FilesService::State::caps(const EndpointRequest& req, ReplyFn reply) {
  if (!admitted(req, reply) || !query(req, {}, reply)) return nullptr;
  EndpointReply r;
  // What this user may do here.
  r.body = json_text(json{{"upload", options.upload && req.rights.has(net::Right::kFilesUp)},
                          {"download", options.download && req.rights.has(net::Right::kFilesDown)},
                          {"upload_dir", options.upload_dir},
                          {"max_upload_bytes", options.max_upload_bytes},
                          {"chunk_bytes", options.chunk_bytes}}) +
           "\n";
  reply(std::move(r));
  return nullptr;
}

// --- the service -------------------------------------------------------------

FilesService::FilesService(asio::io_context& io, std::unique_ptr<platform::FileJail> jail, FilesOptions options,
                           Logger log)
    : FilesService(io, std::move(jail), std::move(options), std::move(log),
                   std::make_unique<DiskWorker>(kMaxQueuedJobs)) {}

FilesService::FilesService(asio::io_context& io, std::unique_ptr<platform::FileJail> jail, FilesOptions options,
                           Logger log, std::unique_ptr<DiskWorker> worker)
    : state_(std::make_shared<State>(io, std::move(jail), std::move(options), std::move(log), std::move(worker))) {
  if (state_->options.upload) state_->sweep_orphans();
}

FilesService::~FilesService() {
  // The worker's running job may use the jail: join it first.
  state_->worker.reset();
  state_->expiry_timer.cancel();
  state_->removal_timer.cancel();
  state_->settle_removals();
}

net::EndpointTable FilesService::endpoints() {
  std::weak_ptr<State> weak = state_;
  // Every handler goes through the service while it exists; after, 503.
  auto bind = [weak](auto method) {
    return [weak, method](EndpointRequest& req, ReplyFn reply) -> CancelFn {
      const auto self = weak.lock();
      if (!self || !self->worker) return reply(json_error(503, "", "file transfer is shutting down")), nullptr;
      return ((*self).*method)(req, std::move(reply));
    };
  };
  net::EndpointTable t;
  t["/files"] = {{"GET"}, bind(&State::caps)};
  t["/files/list"] = {{"GET"}, bind(&State::list)};
  t["/files/download"] = {{"GET", "HEAD"}, bind(&State::download)};
  t["/files/download"].audit_reads = true;
  net::Endpoint up{{"POST", "PUT", "GET", "DELETE"}, bind(&State::upload)};
  up.max_body = size_t(state_->options.chunk_bytes);
  t["/files/upload"] = std::move(up);
  return t;
}

}  // namespace voxl::files
