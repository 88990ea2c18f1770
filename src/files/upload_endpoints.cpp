#include "files/files_state.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "base/json_depth.h"
#include "base/json_fields.h"
#include "base/json_text.h"
#include "files/relative_path.h"
#include "files/reply_words.h"

namespace voxl::files {

using json = nlohmann::json;
using net::CancelFn;
using net::EndpointReply;
using net::EndpointRequest;
using net::json_error;
using net::ReplyFn;
using platform::JailError;

namespace {

constexpr size_t kMaxAnnounceBody = 64 * 1024;
constexpr int kMaxFreeNameTries = 1000;

}  // namespace

CancelFn FilesService::State::upload(EndpointRequest& req, ReplyFn reply) {
  if (!admitted(req, reply) || !direction(req, options.upload, net::Right::kFilesUp, "uploads", reply)) return nullptr;
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

CancelFn FilesService::State::announce(const EndpointRequest& req, ReplyFn reply) {
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
  // Refused before a byte is sent when this system cannot hold the name.
  if (auto named = platform::FileJail::check_names(*path); !named)
    return reply(json_error(400, "path", named.message)), nullptr;
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

std::optional<EndpointReply> FilesService::State::space_for(uint64_t bytes) const {
  const auto free = jail->free_bytes();
  if (!free) return std::nullopt;
  const uint64_t need = bytes + uploads.outstanding_bytes() + options.reserve_bytes;
  if (*free >= need) return std::nullopt;
  return json_error(507, "size", "no space: " + human_bytes(bytes) + " does not fit; the disk has " +
                                     human_bytes(*free) + " free");
}

CancelFn FilesService::State::chunk(Upload& u, const net::Query& q, EndpointRequest& req, ReplyFn reply) {
  net::ParamError error;
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

void FilesService::State::complete(Upload& u, ReplyFn reply) {
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

void FilesService::State::placed(const std::string& id, Placed p, ReplyFn reply) {
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

EndpointReply FilesService::State::no_content() {
  EndpointReply r;
  r.status = 204;
  r.content_type.clear();
  return r;
}

CancelFn FilesService::State::cancel(Upload& u, ReplyFn reply) {
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

void FilesService::State::drop(Upload& u, ReplyFn reply, int status, const std::string& why) {
  remove_partial(u.partial);
  uploads.remove(u.id);
  reply(json_error(status, "id", why));
}
}  // namespace voxl::files
