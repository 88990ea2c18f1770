#include "base/utf8.h"
#include "files/files_state.h"

#include <algorithm>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include <nlohmann/json.hpp>

#include "base/json_text.h"
#include "files/body_sources.h"
#include "files/download_headers.h"
#include "files/relative_path.h"
#include "files/reply_words.h"

namespace voxl::files {

using json = nlohmann::json;
using net::CancelFn;
using net::EndpointReply;
using net::EndpointRequest;
using net::json_error;
using net::ReplyFn;
using platform::FileInfo;

namespace {

std::string http_date(int64_t ms) {
  const std::time_t t = std::time_t(ms / 1000);
  std::tm tm{};
  // The loop thread only: gmtime's static buffer is copied at once.
  if (const std::tm* g = std::gmtime(&t)) tm = *g;
  char buf[64];
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return buf;
}

}  // namespace

// --- GET /files/list -----------------------------------------------------

CancelFn FilesService::State::list(const EndpointRequest& req, ReplyFn reply) {
  if (!admitted(req, reply) || !direction(req, options.download, net::Right::kFilesDown, "downloads", reply)) return nullptr;
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

EndpointReply FilesService::State::listing_reply(const std::string& rel, Listing l) {
  auto& e = l.entries;
  size_t unlisted = 0;
  e.erase(std::remove_if(e.begin(), e.end(),
                         [&unlisted](const platform::DirEntry& d) {
                           if (d.name.starts_with(kPartialPrefix)) return true;
                           if (decode_utf8(d.name)) return false;
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

CancelFn FilesService::State::download(const EndpointRequest& req, ReplyFn reply) {
  if (!admitted(req, reply) || !direction(req, options.download, net::Right::kFilesDown, "downloads", reply)) return nullptr;
  const auto q = query(req, {"path"}, reply);
  if (!q) return nullptr;
  const auto rel = path_param(*q, reply);
  if (!rel) return nullptr;
  auto* jail_ptr = jail.get();
  const bool head = req.method == "HEAD";
  const auto range = req.header("range");
  const auto if_range = req.header("if-range");
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

EndpointReply FilesService::State::file_reply(const std::string& rel, Opened o, bool head,
                                              const std::optional<std::string>& range,
                                              const std::optional<std::string>& if_range,
                                              const std::string& remote) {
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

EndpointReply FilesService::State::zip_reply(const std::string& rel, bool head, const std::string& remote) {
  EndpointReply r;
  r.content_type = "application/zip";
  const std::string base = rel.empty() ? "files" : last_name(rel);
  r.headers = {{"Content-Disposition", attachment_disposition(base + ".zip")},
               {"X-Content-Type-Options", "nosniff"}};
  if (!head) log->info("download of the folder '{}' as a zip by {}", rel, remote.empty() ? "a viewer" : remote);
  r.source = make_zip_source(io, *worker, *jail, head ? std::nullopt : std::optional<std::string>(rel));
  return r;
}

}  // namespace voxl::files
