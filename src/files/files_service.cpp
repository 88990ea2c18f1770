#include "files/files_service.h"

#include <boost/asio/post.hpp>

#include <algorithm>
#include <ctime>
#include <deque>
#include <map>
#include <utility>

#include <nlohmann/json.hpp>

#include "base/json_depth.h"
#include "base/json_fields.h"
#include "base/json_text.h"
#include "endpoints/query.h"
#include "files/body_sources.h"
#include "files/disk_job.h"
#include "files/download_headers.h"
#include "files/relative_path.h"
#include "input/key_mapping.h"

namespace voxl::files {

namespace asio = boost::asio;
using json = nlohmann::json;
using net::CancelFn;
using net::EndpointReply;
using net::EndpointRequest;
using net::json_error;
using net::ReplyFn;
using platform::FileInfo;
using platform::JailError;
using platform::JailStatus;

namespace {

constexpr size_t kMaxQueuedJobs = 256;
constexpr size_t kMaxAnnounceBody = 64 * 1024;
constexpr int kMaxFreeNameTries = 1000;
constexpr size_t kMaxOwedRemovals = 4096;
constexpr auto kRemovalRetry = std::chrono::milliseconds(250);

int http_status(JailError e) {
  switch (e) {
    case JailError::kNone: return 200;
    case JailError::kNotFound: return 404;
    case JailError::kNotAllowed: return 403;
    case JailError::kExists: return 409;
    case JailError::kNotADirectory:
    case JailError::kIsADirectory:
    case JailError::kTooLong: return 400;
    case JailError::kNoSpace: return 507;
    case JailError::kIo: return 500;
  }
  return 500;
}

// Words for a person: what went wrong with `rel`, without the system's
// own path or errno text.
std::string words(JailError e, const std::string& rel) {
  const std::string what = rel.empty() ? "the root folder" : "'" + rel + "'";
  switch (e) {
    case JailError::kNone: return "";
    case JailError::kNotFound: return "no such file or folder: " + what;
    case JailError::kNotAllowed: return "not allowed: " + what;
    case JailError::kExists: return what + " exists already";
    case JailError::kNotADirectory: return what + " is not a folder";
    case JailError::kIsADirectory: return what + " is a folder";
    case JailError::kTooLong: return "the name is too long for this file system: " + what;
    case JailError::kNoSpace: return "no space left on the disk";
    case JailError::kIo: return "the disk refused: " + what;
  }
  return "";
}

EndpointReply jail_error(const JailStatus& s, const std::string& rel, const std::string& parameter) {
  return json_error(http_status(s.error), parameter, words(s.error, rel));
}

std::string human_bytes(uint64_t n) {
  const char* units[] = {"bytes", "KiB", "MiB", "GiB", "TiB"};
  double v = double(n);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  char buf[48];
  std::snprintf(buf, sizeof buf, u == 0 ? "%.0f %s" : "%.1f %s", v, units[u]);
  return buf;
}

std::string http_date(int64_t ms) {
  const std::time_t t = std::time_t(ms / 1000);
  std::tm tm{};
  // The loop thread only: gmtime's static buffer is copied at once.
  if (const std::tm* g = std::gmtime(&t)) tm = *g;
  char buf[64];
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return buf;
}

std::optional<std::string_view> header(const EndpointRequest& req, std::string_view name) {
  for (const auto& [n, v] : req.headers)
    if (n == name) return std::string_view(v);
  return std::nullopt;
}

}  // namespace

struct FilesService::State : std::enable_shared_from_this<FilesService::State> {
  State(asio::io_context& context, std::unique_ptr<platform::FileJail> j, FilesOptions o, Logger l,
        std::unique_ptr<DiskWorker> w)
      : io(context), jail(std::move(j)), options(std::move(o)), log(std::move(l)),
        uploads(options.max_uploads, options.upload_expiry), expiry_timer(context), worker(std::move(w)) {}

  asio::io_context& io;
  std::unique_ptr<platform::FileJail> jail;
  FilesOptions options;
  Logger log;
  UploadTable uploads;
  asio::steady_timer expiry_timer;
  std::unique_ptr<DiskWorker> worker;
  // DELETEs waiting on a completion in progress, by upload id (at most one each).
  std::map<std::string, ReplyFn> cancels_waiting;
  // Partial files to remove that the worker's full queue refused.
  std::deque<std::string> removals_owed;
  asio::steady_timer removal_timer{io};
  bool removal_retry_armed = false;

  // Runs `job` on the worker, then `done(result)` on the loop if this
  // service still exists (files/disk_job.h). False when the queue is full.
  template <class Result, class Job, class Done>
  [[nodiscard]] bool off_loop(Job job, Done done) {
    return run_disk_job<Result>(*worker, io, weak_from_this(), std::move(job), std::move(done));
  }

  // --- gates ---------------------------------------------------------------

  // Who may use files at all: full viewers on this site's pages.
  static bool admitted(const EndpointRequest& req, ReplyFn& reply) {
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

  bool direction(bool on, const char* what, ReplyFn& reply) const {
    if (on) return true;
    reply(json_error(403, "", std::string(what) + " are off on this server (--file-transfers)"));
    return false;
  }

  static std::optional<endpoints::Query> query(const EndpointRequest& req, const std::vector<std::string>& known,
                                               ReplyFn& reply) {
    endpoints::ParamError error;
    auto q = endpoints::Query::parse(req.query, error);
    if (!q) {
      reply(json_error(400, error.parameter, error.parameter + " " + error.message));
      return std::nullopt;
    }
    if (auto u = q->unknown(known)) {
      reply(json_error(400, *u, *u + " is not a parameter of " + req.path));
      return std::nullopt;
    }
    return q;
  }

  static std::optional<std::string> path_param(const endpoints::Query& q, ReplyFn& reply) {
    const std::string* text = q.text("path");
    std::string why;
    auto rel = parse_relative_path(text ? *text : std::string(), why);
    if (!rel) reply(json_error(400, "path", why));
    return rel;
  }

  void busy(ReplyFn& reply) const {
    reply(json_error(503, "", "the disk is busy with other transfers; try again shortly"));
  }

  // --- GET /files ----------------------------------------------------------

  CancelFn caps(const EndpointRequest& req, ReplyFn reply) {
    if (!admitted(req, reply) || !query(req, {}, reply)) return nullptr;
    EndpointReply r;
    r.body = json_text(json{{"upload", options.upload},
                            {"download", options.download},
                            {"upload_dir", options.upload_dir},
                            {"max_upload_bytes", options.max_upload_bytes},
                            {"chunk_bytes", options.chunk_bytes}}) +
             "\n";
    reply(std::move(r));
    return nullptr;
  }

  // --- GET /files/list -----------------------------------------------------

  struct Listing {
    JailStatus status;
    std::vector<platform::DirEntry> entries;
    bool truncated = false;
  };

  CancelFn list(const EndpointRequest& req, ReplyFn reply) {
    if (!admitted(req, reply) || !direction(options.download, "downloads", reply)) return nullptr;
    const auto q = query(req, {"path"}, reply);
    if (!q) return nullptr;
    const auto rel = path_param(*q, reply);
    if (!rel) return nullptr;
    const size_t max = options.max_list_entries;
    auto* jail_ptr = jail.get();
    const bool queued = off_loop<Listing>(
        [jail_ptr, rel = *rel, max] {
          Listing l;
          l.status = jail_ptr->list(rel, max, l.entries, l.truncated);
          return l;
        },
        [rel = *rel, reply](State&, Listing l) mutable {
          if (!l.status) return reply(jail_error(l.status, rel, "path"));
          reply(listing_reply(rel, std::move(l)));
        });
    if (!queued) busy(reply);
    return nullptr;
  }

  static EndpointReply listing_reply(const std::string& rel, Listing l) {
    auto& e = l.entries;
    size_t unlisted = 0;
    e.erase(std::remove_if(e.begin(), e.end(),
                           [&unlisted](const platform::DirEntry& d) {
                             if (d.name.starts_with(kPartialPrefix)) return true;
                             if (input::decode_utf8(d.name)) return false;
                             ++unlisted;
                             return true;
                           }),
            e.end());
    const auto folded = [](const std::string& s) {
      std::string out(s);
      for (char& c : out)
        if (c >= 'A' && c <= 'Z') c = char(c - 'A' + 'a');
      return out;
    };
    std::sort(e.begin(), e.end(), [&folded](const platform::DirEntry& a, const platform::DirEntry& b) {
      const bool da = a.info.kind == FileInfo::Kind::kDirectory;
      const bool db = b.info.kind == FileInfo::Kind::kDirectory;
      if (da != db) return da;
      const std::string fa = folded(a.name), fb = folded(b.name);
      if (fa != fb) return fa < fb;
      return a.name < b.name;
    });
    json entries = json::array();
    for (const auto& d : e) {
      const char* type = d.info.kind == FileInfo::Kind::kDirectory ? "dir"
                         : d.info.kind == FileInfo::Kind::kFile    ? "file"
                                                                   : "other";
      entries.push_back(json{{"name", d.name}, {"type", type}, {"size", d.info.size}, {"modified", d.info.modified_ms}});
    }
    EndpointReply r;
    r.body = json_text(json{{"path", rel}, {"entries", std::move(entries)}, {"truncated", l.truncated},
                            {"unlisted", unlisted}}) +
             "\n";
    return r;
  }

  // --- GET /files/download -------------------------------------------------

  struct Opened {
    JailStatus status;
    FileInfo info;
    std::shared_ptr<platform::OwnedFile> file;  // a regular file; null for a folder
  };

  CancelFn download(const EndpointRequest& req, ReplyFn reply) {
    if (!admitted(req, reply) || !direction(options.download, "downloads", reply)) return nullptr;
    const auto q = query(req, {"path"}, reply);
    if (!q) return nullptr;
    const auto rel = path_param(*q, reply);
    if (!rel) return nullptr;
    auto* jail_ptr = jail.get();
    const bool head = req.method == "HEAD";
    const auto range = header(req, "range");
    const auto if_range = header(req, "if-range");
    const bool queued = off_loop<Opened>(
        [jail_ptr, rel = *rel] {
          Opened o;
          o.status = jail_ptr->stat(rel, o.info);
          if (!o.status || o.info.kind != FileInfo::Kind::kFile) return o;
          auto file = std::make_shared<platform::OwnedFile>();
          o.status = jail_ptr->open_read(rel, *file, o.info);
          if (o.status) o.file = std::move(file);
          return o;
        },
        [rel = *rel, reply, head, range = std::optional<std::string>(range), if_range = std::optional<std::string>(if_range),
         remote = req.remote_address](State& self, Opened o) mutable {
          if (!o.status) return reply(jail_error(o.status, rel, "path"));
          if (o.info.kind == FileInfo::Kind::kDirectory) return reply(self.zip_reply(rel, head, remote));
          if (!o.file) return reply(json_error(403, "path", "'" + rel + "' is not a regular file"));
          reply(self.file_reply(rel, std::move(o), head, range, if_range, remote));
        });
    if (!queued) busy(reply);
    return nullptr;
  }

  EndpointReply file_reply(const std::string& rel, Opened o, bool head, const std::optional<std::string>& range,
                           const std::optional<std::string>& if_range, const std::string& remote) {
    const std::string etag = "\"" + o.info.version + "\"";
    const RangeChoice choice = choose_range(range, if_range, etag, o.info.size);
    EndpointReply r;
    r.content_type = "application/octet-stream";
    r.headers = {{"Accept-Ranges", "bytes"},
                 {"ETag", etag},
                 {"Last-Modified", http_date(o.info.modified_ms)},
                 {"Content-Disposition", attachment_disposition(last_name(rel))},
                 {"X-Content-Type-Options", "nosniff"}};
    if (choice.kind == RangeChoice::Kind::kUnsatisfiable) {
      EndpointReply e = json_error(416, "Range", "the range asks for bytes past the end of the file");
      e.headers.push_back({"Content-Range", content_range(choice, o.info.size)});
      return e;
    }
    uint64_t first = 0, length = o.info.size;
    if (choice.kind == RangeChoice::Kind::kPart) {
      r.status = 206;
      first = choice.first;
      length = choice.length;
      r.headers.push_back({"Content-Range", content_range(choice, o.info.size)});
    }
    r.content_length = length;
    if (!head) {
      log->info("download of '{}' ({}{}) by {}", rel, human_bytes(length),
                choice.kind == RangeChoice::Kind::kPart ? ", a range" : "", remote.empty() ? "a viewer" : remote);
      r.source = make_file_source(io, *worker, std::move(o.file), first, length);
    } else {
      r.source = make_file_source(io, *worker, nullptr, 0, 0);
    }
    return r;
  }

  EndpointReply zip_reply(const std::string& rel, bool head, const std::string& remote) {
    EndpointReply r;
    r.content_type = "application/zip";
    const std::string base = rel.empty() ? "files" : last_name(rel);
    r.headers = {{"Content-Disposition", attachment_disposition(base + ".zip")},
                 {"X-Content-Type-Options", "nosniff"}};
    if (!head) log->info("download of the folder '{}' as a zip by {}", rel, remote.empty() ? "a viewer" : remote);
    r.source = make_zip_source(io, *worker, *jail, head ? std::nullopt : std::optional<std::string>(rel));
    return r;
  }

  // --- /files/upload -------------------------------------------------------

  // The chunk's body is moved to the disk worker, not copied.
  CancelFn upload(EndpointRequest& req, ReplyFn reply) {
    if (!admitted(req, reply) || !direction(options.upload, "uploads", reply)) return nullptr;
    if (req.method == "POST") return announce(req, std::move(reply));
    const auto q = query(req, req.method == "PUT" ? std::vector<std::string>{"id", "offset"}
                                                  : std::vector<std::string>{"id"},
                         reply);
    if (!q) return nullptr;
    const std::string* id = q->text("id");
    Upload* u = id ? uploads.find(*id) : nullptr;
    if (!u || u->cancelled) {
      reply(json_error(404, "id", "no upload in progress with this id (finished, cancelled or expired)"));
      return nullptr;
    }
    if (req.method == "GET") {
      EndpointReply r;
      r.body = json_text(json{{"offset", u->offset}, {"size", u->size}, {"done", false}}) + "\n";
      reply(std::move(r));
      return nullptr;
    }
    if (req.method == "DELETE") return cancel(*u, std::move(reply));
    return chunk(*u, *q, req, std::move(reply));
  }

  struct Begun {
    JailStatus status;
    std::string where;  // what the status is about
    std::shared_ptr<platform::OwnedFile> file;
  };

  CancelFn announce(const EndpointRequest& req, ReplyFn reply) {
    if (!query(req, {}, reply)) return nullptr;
    if (req.body.size() > kMaxAnnounceBody || !json_depth_within(req.body, 4))
      return reply(json_error(400, "", "the body is not a small JSON object")), nullptr;
    const json body = json::parse(req.body, nullptr, false);
    if (!body.is_object()) return reply(json_error(400, "", "the body is not a JSON object")), nullptr;
    JsonFields f(body);
    const auto size = f.integer("size", 0, int64_t(1) << 53);
    const auto path_text = f.string("path", kMaxPathBytes);
    if (!f.ok() || !size || !path_text)
      return reply(json_error(400, !path_text ? "path" : "size",
                              "the body needs \"path\" (a relative name) and \"size\" (bytes, a whole number)")),
             nullptr;
    std::string why;
    const auto path = parse_new_path(*path_text, why);
    if (!path) return reply(json_error(400, "path", why)), nullptr;
    const uint64_t bytes = uint64_t(*size);
    if (options.max_upload_bytes != 0 && bytes > options.max_upload_bytes)
      return reply(json_error(413, "size",
                              "too big: " + human_bytes(bytes) + " is more than the " +
                                  human_bytes(options.max_upload_bytes) + " this server takes (--max-upload-mb)")),
             nullptr;
    if (uploads.full())
      return reply(json_error(503, "", "too many uploads in progress; try again when one has finished")), nullptr;
    if (auto s = space_for(bytes)) return reply(std::move(*s)), nullptr;

    const std::string id = options.make_id();
    const std::string target = join_path(options.upload_dir, *path);
    const std::string partial = join_path(options.upload_dir, std::string(kPartialPrefix) + id + ".part");
    auto* jail_ptr = jail.get();
    const bool queued = off_loop<Begun>(
        [jail_ptr, dir = options.upload_dir, parent = parent_path(target), partial] {
          Begun b;
          b.where = dir;
          if (b.status = jail_ptr->make_dirs(dir); !b.status) return b;
          b.where = parent;
          if (b.status = jail_ptr->make_dirs(parent); !b.status) return b;
          b.where = partial;
          auto file = std::make_shared<platform::OwnedFile>();
          if (b.status = jail_ptr->create_new(partial, *file); b.status) b.file = std::move(file);
          return b;
        },
        [reply, id, target, partial, bytes](State& self, Begun b) mutable {
          if (!b.status) return reply(jail_error(b.status, b.where, "path"));
          Upload u;
          u.id = id;
          u.target = target;
          u.partial = partial;
          u.size = bytes;
          u.touched = UploadTable::Clock::now();
          u.file = std::move(b.file);
          if (!self.uploads.add(std::move(u))) {
            self.remove_partial(partial);
            return reply(json_error(503, "", "too many uploads in progress; try again when one has finished"));
          }
          self.arm_expiry();
          EndpointReply r;
          r.status = 201;
          r.body = json_text(json{{"id", id}, {"offset", 0}, {"size", bytes}}) + "\n";
          reply(std::move(r));
        });
    if (!queued) busy(reply);
    return nullptr;
  }

  // A 507 when the disk cannot take `bytes` more besides what uploads in
  // progress announced and the reserve; nullopt when it can (or cannot tell).
  std::optional<EndpointReply> space_for(uint64_t bytes) const {
    const auto free = jail->free_bytes();
    if (!free) return std::nullopt;
    const uint64_t need = bytes + uploads.outstanding_bytes() + options.reserve_bytes;
    if (*free >= need) return std::nullopt;
    return json_error(507, "size", "no space: " + human_bytes(bytes) + " does not fit; the disk has " +
                                       human_bytes(*free) + " free");
  }

  struct Written {
    JailStatus status;
    std::string error;  // a write the system refused
  };

  CancelFn chunk(Upload& u, const endpoints::Query& q, EndpointRequest& req, ReplyFn reply) {
    endpoints::ParamError error;
    uint64_t offset = 0;
    if (!q.has("offset") || !q.unsigned_integer("offset", offset, error))
      return reply(json_error(400, "offset", "offset must be the number of bytes confirmed so far")), nullptr;
    const uint64_t n = req.body.size();
    switch (uploads.check_chunk(u.id, offset, n)) {
      case UploadTable::Verdict::kOk: break;
      case UploadTable::Verdict::kUnknown:
        return reply(json_error(404, "id", "no upload in progress with this id")), nullptr;
      case UploadTable::Verdict::kBusy:
      case UploadTable::Verdict::kWrongOffset: {
        EndpointReply r;
        r.status = 409;
        r.body = json_text(json{{"error", u.busy ? "a chunk of this upload is being written; ask for the offset and go on"
                                                 : "the confirmed offset is " + std::to_string(u.offset)},
                                {"parameter", "offset"},
                                {"offset", u.offset}}) +
                 "\n";
        return reply(std::move(r)), nullptr;
      }
      case UploadTable::Verdict::kPastEnd:
        return reply(json_error(400, "offset", "more bytes than the " + std::to_string(u.size) + " announced")),
               nullptr;
    }
    if (n > 0) {
      const auto free = jail->free_bytes();
      if (free && *free < n + options.reserve_bytes / 2)
        return reply(json_error(507, "", "no space left on the disk")), nullptr;
    }
    u.busy = true;
    const bool queued = off_loop<Written>(
        [file = u.file, data = std::move(req.body), offset] {
          Written w;
          if (!data.empty() && !platform::write_at(file->get(), data.data(), data.size(), offset, w.error))
            w.status = {JailError::kIo, w.error};
          return w;
        },
        [id = u.id, n, reply](State& self, Written w) mutable {
          Upload* up = self.uploads.find(id);
          if (!up) return reply(json_error(404, "id", "the upload was cancelled"));
          up->busy = false;
          if (up->cancelled) return self.drop(*up, std::move(reply), 404, "the upload was cancelled");
          if (!w.status) {
            const std::string why = w.error.empty() ? w.status.message : w.error;
            const bool full = why.find("space") != std::string::npos || why.find("quota") != std::string::npos;
            return reply(json_error(full ? 507 : 500, "", full ? "no space left on the disk" : "cannot write: " + why));
          }
          self.uploads.advance(*up, n, UploadTable::Clock::now());
          if (up->offset < up->size) {
            EndpointReply r;
            r.body = json_text(json{{"offset", up->offset}, {"size", up->size}, {"done", false}}) + "\n";
            return reply(std::move(r));
          }
          self.complete(*up, std::move(reply));
        });
    if (!queued) {
      u.busy = false;
      busy(reply);
    }
    return nullptr;
  }

  struct Placed {
    JailStatus status;
    std::string name;        // relative to the root
    bool withdrawn = false;  // cancelled before the rename: the partial file is removed
  };

  // Every byte is written: flush, then rename into place under the first
  // free name.
  void complete(Upload& u, ReplyFn reply) {
    u.busy = true;
    u.placing = true;
    auto* jail_ptr = jail.get();
    const bool queued = off_loop<Placed>(
        [jail_ptr, file = u.file, partial = u.partial, target = u.target, withdrawn = u.withdrawn] {
          Placed p;
          if (p.status = platform::FileJail::sync(*file); !p.status) return p;
          if (withdrawn->load()) {
            p.withdrawn = true;
            (void)jail_ptr->remove(partial);
            return p;
          }
          if (p.status = jail_ptr->make_dirs(parent_path(target)); !p.status) return p;
          for (int n = 0; n <= kMaxFreeNameTries; ++n) {
            const std::string name = n == 0 ? target : join_path(parent_path(target), numbered_name(last_name(target), n));
            p.status = jail_ptr->rename_new(partial, name);
            if (p.status) {
              p.name = name;
              return p;
            }
            if (p.status.error != JailError::kExists) return p;
          }
          p.status = {JailError::kExists, "no free name"};
          return p;
        },
        [id = u.id, reply](State& self, Placed p) mutable { self.placed(id, std::move(p), std::move(reply)); });
    if (!queued) {
      u.busy = false;
      u.placing = false;
      // Nothing lost: every byte is confirmed; an empty chunk at the end retries.
      u.offset = u.size;
      busy(reply);
    }
  }

  // The completion's answer, and the answer of a DELETE that came while it ran.
  void placed(const std::string& id, Placed p, ReplyFn reply) {
    ReplyFn cancel_reply;
    if (auto it = cancels_waiting.find(id); it != cancels_waiting.end()) {
      cancel_reply = std::move(it->second);
      cancels_waiting.erase(it);
    }
    Upload* up = uploads.find(id);
    if (!up) return reply(json_error(404, "id", "the upload was cancelled"));
    up->busy = false;
    up->placing = false;
    if (p.withdrawn) {
      uploads.remove(id);
      reply(json_error(404, "id", "the upload was cancelled"));
      if (cancel_reply) cancel_reply(no_content());
      return;
    }
    if (!p.status) {
      // The bytes stay in the partial file; the client may ask again by
      // sending the last empty chunk, unless it cancelled meanwhile.
      up->offset = up->size;
      reply(json_error(http_status(p.status.error), "path",
                       "cannot put the file in place: " + words(p.status.error, up->target)));
      if (cancel_reply) {
        remove_partial(up->partial);
        uploads.remove(id);
        cancel_reply(no_content());
      }
      return;
    }
    const std::string prefix = options.upload_dir.empty() ? "" : options.upload_dir + "/";
    const std::string name = p.name.substr(std::min(prefix.size(), p.name.size()));
    const std::string asked = up->target.substr(std::min(prefix.size(), up->target.size()));
    log->info("upload of '{}' ({}) saved as '{}'", asked, human_bytes(up->size), p.name);
    EndpointReply r;
    r.body = json_text(json{{"offset", up->size},
                            {"size", up->size},
                            {"done", true},
                            {"name", name},
                            {"path", p.name},
                            {"renamed", p.name != up->target}}) +
             "\n";
    uploads.remove(id);
    reply(std::move(r));
    if (cancel_reply) {
      const std::string why = "the upload finished before it could be cancelled; it is saved as '" + name + "'";
      EndpointReply late;
      late.status = 409;
      late.body = json_text(json{{"error", why}, {"parameter", "id"}, {"path", p.name}}) + "\n";
      cancel_reply(std::move(late));
    }
  }

  static EndpointReply no_content() {
    EndpointReply r;
    r.status = 204;
    r.content_type.clear();
    return r;
  }

  CancelFn cancel(Upload& u, ReplyFn reply) {
    if (u.placing) {
      // The completion decides: withdrawn before the rename (204), or
      // saved already (409 naming the file).
      if (cancels_waiting.contains(u.id))
        return reply(json_error(409, "id", "this upload is being cancelled already")), nullptr;
      u.withdrawn->store(true);
      cancels_waiting.emplace(u.id, std::move(reply));
      return nullptr;
    }
    if (u.busy) {
      // The write in flight finds the mark and removes the file.
      u.cancelled = true;
    } else {
      remove_partial(u.partial);
      uploads.remove(u.id);
    }
    reply(no_content());
    return nullptr;
  }

  void drop(Upload& u, ReplyFn reply, int status, const std::string& why) {
    remove_partial(u.partial);
    uploads.remove(u.id);
    reply(json_error(status, "id", why));
  }

  // Removes a partial file on the worker; when its queue is full, the
  // removal is owed and retried until it is taken (at the latest by the
  // destructor).
  void remove_partial(const std::string& partial) {
    if (removals_owed.empty() && submit_removal(partial)) return;
    if (removals_owed.size() >= kMaxOwedRemovals) {
      log->warn("cannot remove the partial file '{}' now: the disk is busy; the next start removes it", partial);
      return;
    }
    removals_owed.push_back(partial);
    arm_removal_retry();
  }

  bool submit_removal(const std::string& partial) {
    auto* jail_ptr = jail.get();
    return worker->submit([jail_ptr, partial] { (void)jail_ptr->remove(partial); });
  }

  void arm_removal_retry() {
    if (removal_retry_armed) return;
    removal_retry_armed = true;
    removal_timer.expires_after(kRemovalRetry);
    std::weak_ptr<State> weak = shared_from_this();
    removal_timer.async_wait([weak](const boost::system::error_code& ec) {
      if (ec) return;
      auto self = weak.lock();
      if (!self || !self->worker) return;
      self->removal_retry_armed = false;
      while (!self->removals_owed.empty() && self->submit_removal(self->removals_owed.front()))
        self->removals_owed.pop_front();
      if (!self->removals_owed.empty()) self->arm_removal_retry();
    });
  }

  // At the end, with the worker gone: what is still owed is removed here.
  void settle_removals() {
    for (const auto& partial : removals_owed) (void)jail->remove(partial);
    removals_owed.clear();
  }

  void arm_expiry() {
    const auto next = uploads.next_expiry();
    if (!next) return;
    // One that is due but busy writing waits for its write: look again in
    // a second rather than at once.
    expiry_timer.expires_at(std::max(*next, UploadTable::Clock::now() + std::chrono::seconds(1)));
    std::weak_ptr<State> weak = shared_from_this();
    expiry_timer.async_wait([weak](const boost::system::error_code& ec) {
      if (ec) return;
      if (auto self = weak.lock()) self->on_expiry();
    });
  }

  void on_expiry() {
    for (Upload& u : uploads.expire(UploadTable::Clock::now())) {
      log->info("upload of '{}' expired after {} of {} bytes; its partial file is removed", u.target, u.offset, u.size);
      remove_partial(u.partial);
    }
    arm_expiry();
  }

  // Partial files a run before this one left in the upload folder, older
  // than the expiry: nobody can resume them any more.
  void sweep_orphans() {
    auto* jail_ptr = jail.get();
    const std::string dir = options.upload_dir;
    const auto expiry = options.upload_expiry;
    worker->submit([jail_ptr, dir, expiry] {
      std::vector<platform::DirEntry> entries;
      bool truncated = false;
      if (!jail_ptr->list(dir, 100000, entries, truncated)) return;
      const int64_t now_ms = std::chrono::duration_cast<std::chrono::milliseconds>(
                                 std::chrono::system_clock::now().time_since_epoch())
                                 .count();
      const int64_t max_age = std::chrono::duration_cast<std::chrono::milliseconds>(expiry).count();
      for (const auto& e : entries)
        if (e.name.starts_with(kPartialPrefix) && e.name.ends_with(".part") &&
            e.info.kind == FileInfo::Kind::kFile && now_ms - e.info.modified_ms > max_age)
          (void)jail_ptr->remove(join_path(dir, e.name));
    });
  }
};

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
  net::Endpoint up{{"POST", "PUT", "GET", "DELETE"}, bind(&State::upload)};
  up.max_body = size_t(state_->options.chunk_bytes);
  t["/files/upload"] = std::move(up);
  return t;
}

}  // namespace voxl::files
