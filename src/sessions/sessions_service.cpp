#include "sessions/sessions_service.h"

#include <algorithm>
#include <optional>
#include <string>
#include <utility>

#include "base/json_text.h"
#include "files/body_sources.h"
#include "files/disk_job.h"
#include "files/download_headers.h"
#include "net/query.h"

namespace voxl::sessions {

using json = nlohmann::json;
using net::CancelFn;
using net::EndpointReply;
using net::EndpointRequest;
using net::json_error;
using net::ReplyFn;

namespace {

constexpr size_t kMaxQueued = 64;

// `text`: JSON made on the disk worker (a long list of events is no work
// for the loop that sends the picture).
EndpointReply json_reply(std::string text) {
  EndpointReply r;
  r.body = std::move(text);
  r.headers.push_back({"Cache-Control", "no-store"});
  return r;
}

struct Answer {
  platform::JailStatus status;
  std::optional<std::string> body;  // JSON text
  std::string error;                // 404's
};

std::string text_of(const json& j) { return json_text(j) + "\n"; }

// What a disk job found, as the reply: its JSON, a 404 naming the id, or a
// 500 when the disk failed.
auto answer(ReplyFn reply) {
  return [reply = std::move(reply)](auto&, Answer a) {
    if (!a.status) return reply(json_error(500, "", a.status.message));
    if (!a.body) return reply(json_error(404, "id", a.error));
    reply(json_reply(std::move(*a.body)));
  };
}

struct Opened {
  platform::JailStatus status;
  std::shared_ptr<platform::OwnedFile> file;
  platform::FileInfo info;
};

}  // namespace

struct SessionsService::State : std::enable_shared_from_this<State> {
  State(boost::asio::io_context& context, std::shared_ptr<const platform::FileJail> j, std::function<LiveState()> l,
        Logger lg)
      : io(context), jail(std::move(j)), live(std::move(l)), log(std::move(lg)),
        worker(std::make_unique<files::DiskWorker>(kMaxQueued)) {}

  boost::asio::io_context& io;
  std::shared_ptr<const platform::FileJail> jail;
  std::function<LiveState()> live;
  Logger log;
  std::unique_ptr<files::DiskWorker> worker;

  template <class Result, class Work, class Done>
  void off_loop(Work work, Done done, ReplyFn& reply) {
    if (!files::run_disk_job<Result>(*worker, io, weak_from_this(), std::move(work), std::move(done)))
      reply(json_error(503, "", "the disk is busy; try again shortly"));
  }

  // Admins only, on this site's pages; the query's parameters known and the
  // id well-formed when asked for.
  static std::optional<net::Query> admitted(const EndpointRequest& req, const std::vector<std::string>& known,
                                            ReplyFn& reply) {
    if (req.foreign_origin) {
      reply(json_error(403, "Origin", "requests from another site's pages are refused"));
      return std::nullopt;
    }
    if (req.view_only || !req.rights.has(net::Right::kAdmin)) {
      reply(json_error(403, "", "recorded sessions are for admins; " +
                                    (req.user.empty() ? std::string("this sign-in") : req.user) +
                                    " does not have the admin right (the users file)"));
      return std::nullopt;
    }
    auto q = net::known_query(req, known, reply);
    if (!q) return std::nullopt;
    if (std::find(known.begin(), known.end(), "id") != known.end()) {
      const std::string* id = q->text("id");
      if (!id || !valid_session_id(*id)) {
        reply(json_error(400, "id", "id must name a session, like 20261205T101500Z-3f2a9c"));
        return std::nullopt;
      }
    }
    return q;
  }

  CancelFn list(const EndpointRequest& req, ReplyFn reply) {
    if (!admitted(req, {}, reply)) return nullptr;
    off_loop<Answer>(
        [jail = jail, live = live()] {
          Answer a;
          json list = list_sessions(*jail, live);
          list["recording"] = true;
          a.body = text_of(list);
          return a;
        },
        answer(reply), reply);
    return nullptr;
  }

  CancelFn info(const EndpointRequest& req, ReplyFn reply) {
    const auto q = admitted(req, {"id"}, reply);
    if (!q) return nullptr;
    const std::string id = *q->text("id");
    if (req.method == "DELETE") return remove(id, reply);
    off_loop<Answer>(
        [jail = jail, live = live(), id] {
          Answer a;
          if (const auto info = session_info(*jail, id, live, a.error)) a.body = text_of(*info);
          return a;
        },
        answer(reply), reply);
    return nullptr;
  }

  CancelFn remove(const std::string& id, ReplyFn& reply) {
    if (const LiveState now = live(); now.id == id || now.writing.count(id)) {
      reply(json_error(409, "id", "the session " + id + " is being recorded; it can be removed once it ends"));
      return nullptr;
    }
    off_loop<Answer>(
        [jail = jail, id, log = log] {
          Answer a;
          platform::FileInfo info;
          if (!jail->stat(id, info)) {
            a.error = "no recorded session '" + id + "'";
            return a;
          }
          apply_removals(*jail, {Removal{Removal::Kind::kSession, id, 0, {}, "an admin removed it"}}, log);
          a.body = text_of(json{{"removed", id}});
          return a;
        },
        answer(reply), reply);
    return nullptr;
  }

  CancelFn video(const EndpointRequest& req, ReplyFn reply) {
    const auto q = admitted(req, {"id", "segment"}, reply);
    if (!q) return nullptr;
    const std::string id = *q->text("id");
    net::ParamError error;
    int64_t index = 0;
    if (!q->integer("segment", 1, kMaxSegments, index, error) || index == 0) {
      reply(json_error(400, "segment", "segment must be a segment's number, 1 to " + std::to_string(kMaxSegments)));
      return nullptr;
    }
    const std::string rel = id + "/" + segment_video(int(index));
    const auto range = req.header("range");
    const auto if_range = req.header("if-range");
    off_loop<Opened>(
        [jail = jail, rel] {
          Opened o;
          auto file = std::make_shared<platform::OwnedFile>();
          o.status = jail->open_read(rel, *file, o.info);
          if (o.status) o.file = std::move(file);
          return o;
        },
        [reply, head = req.method == "HEAD", range = std::optional<std::string>(range),
         if_range = std::optional<std::string>(if_range), rel](State& self, Opened o) {
          if (!o.status) return reply(json_error(404, "segment", "no segment " + rel + ": " + o.status.message));
          reply(self.file_reply(std::move(o), head, range, if_range));
        },
        reply);
    return nullptr;
  }

  EndpointReply file_reply(Opened o, bool head, const std::optional<std::string>& range,
                           const std::optional<std::string>& if_range) {
    const std::string etag = "\"" + o.info.version + "\"";
    const files::RangeChoice choice = files::choose_range(range, if_range, etag, o.info.size);
    if (choice.kind == files::RangeChoice::Kind::kUnsatisfiable) {
      EndpointReply e = json_error(416, "Range", "the range asks for bytes past the end of the segment");
      e.headers.push_back({"Content-Range", files::content_range(choice, o.info.size)});
      return e;
    }
    EndpointReply r;
    r.content_type = "video/mp4";
    r.headers = {{"Accept-Ranges", "bytes"}, {"ETag", etag}, {"X-Content-Type-Options", "nosniff"},
                 {"Cache-Control", "private, max-age=3600"}};
    uint64_t first = 0, length = o.info.size;
    if (choice.kind == files::RangeChoice::Kind::kPart) {
      r.status = 206;
      first = choice.first;
      length = choice.length;
      r.headers.push_back({"Content-Range", files::content_range(choice, o.info.size)});
    }
    r.content_length = length;
    r.source = files::make_file_source(io, *worker, head ? nullptr : std::move(o.file), first, head ? 0 : length);
    return r;
  }

  CancelFn download(const EndpointRequest& req, ReplyFn reply) {
    const auto q = admitted(req, {"id"}, reply);
    if (!q) return nullptr;
    const std::string id = *q->text("id");
    off_loop<Answer>(
        [jail = jail, id] {
          Answer a;
          platform::FileInfo info;
          a.status = jail->stat(id, info);
          return a;
        },
        [reply, id, head = req.method == "HEAD"](State& self, Answer a) {
          if (!a.status) return reply(json_error(404, "id", "no recorded session '" + id + "'"));
          EndpointReply r;
          r.content_type = "application/zip";
          r.headers = {{"Content-Disposition", files::attachment_disposition("voxl-session-" + id + ".zip")},
                       {"X-Content-Type-Options", "nosniff"}};
          r.source = files::make_zip_source(self.io, *self.worker, *self.jail,
                                            head ? std::nullopt : std::optional<std::string>(id));
          reply(std::move(r));
        },
        reply);
    return nullptr;
  }
};

SessionsService::SessionsService(boost::asio::io_context& io, std::shared_ptr<const platform::FileJail> jail,
                                 std::function<LiveState()> live, Logger log)
    : state_(std::make_shared<State>(io, std::move(jail), std::move(live), std::move(log))) {}

SessionsService::~SessionsService() {
  // The worker's thread is joined here, before the jail it reads goes.
  state_->worker.reset();
}

net::EndpointTable SessionsService::endpoints() {
  net::EndpointTable t;
  const auto bind = [this](auto member) {
    return [weak = std::weak_ptr<State>(state_), member](EndpointRequest& req, ReplyFn reply) -> CancelFn {
      const auto self = weak.lock();
      if (!self) return nullptr;
      return ((*self).*member)(req, std::move(reply));
    };
  };
  t["/sessions/list"] = {{"GET"}, bind(&State::list)};
  t["/sessions/info"] = {{"GET", "DELETE"}, bind(&State::info)};
  t["/sessions/video"] = {{"GET", "HEAD"}, bind(&State::video)};
  t["/sessions/video"].audit_reads = true;
  t["/sessions/download"] = {{"GET", "HEAD"}, bind(&State::download)};
  t["/sessions/download"].audit_reads = true;
  return t;
}

}  // namespace voxl::sessions
