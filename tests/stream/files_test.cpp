// File transfer through the real binary: uploads in chunks compared by
// hash, resuming after a cut, a folder of 500 files back as a zip, Range
// downloads, every traversal attempt at every endpoint and parameter, and
// the flags and roles that turn directions off.
#include <archive.h>
#include <archive_entry.h>
#include <openssl/evp.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include <nlohmann/json.hpp>

#include "http_client.h"
#include "raw_connection.h"
#include "voxl_fixture.h"

namespace voxl::testing {
namespace VOXL_TEST_FILE {

namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace std::chrono_literals;

constexpr size_t kChunk = 1 << 20;

std::string sha256(const std::string& bytes) {
  unsigned char md[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_Digest(bytes.data(), bytes.size(), md, &n, EVP_sha256(), nullptr);
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (unsigned i = 0; i < n; ++i) out += kHex[md[i] >> 4], out += kHex[md[i] & 15];
  return out;
}

// In one read: a 200 MB file a byte at a time is most of a Debug test's time.
std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary | std::ios::ate);
  if (!in) return {};
  std::string out(size_t(in.tellg()), '\0');
  in.seekg(0);
  in.read(out.data(), std::streamsize(out.size()));
  out.resize(size_t(in.gcount()));
  return out;
}

void write_file(const fs::path& p, const std::string& bytes) {
  fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary) << bytes;
}

std::string random_bytes(size_t n, uint32_t seed) {
  std::mt19937 gen(seed);
  std::string out(n, '\0');
  for (size_t i = 0; i + 4 <= n; i += 4) {
    const uint32_t v = gen();
    std::memcpy(&out[i], &v, 4);
  }
  return out;
}

std::string encode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) || u == '-' || u == '_' || u == '.' || u == '~') out += c;
    else out += '%', out += kHex[u >> 4], out += kHex[u & 15];
  }
  return out;
}

// Every file beneath `dir`, relative path -> contents.
std::map<std::string, std::string> tree(const fs::path& dir) {
  std::map<std::string, std::string> out;
  if (!fs::exists(dir)) return out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out[fs::relative(e.path(), dir).string()] = read_file(e.path());
  return out;
}

// The hello a viewer was sent (null when none came in time).
json hello_of(StreamClient& c) {
  const auto end = std::chrono::steady_clock::now() + 30s;
  while (std::chrono::steady_clock::now() < end) {
    for (const auto& t : c.texts())
      if (t.value("type", "") == "hello") return t;
    c.read_one(100ms);
  }
  return nullptr;
}

class FilesTest : public VoxlFixture {
 protected:
  void SetUp() override {
    std::random_device r;
    base_ = fs::temp_directory_path() / ("voxl-files-" + std::to_string(r()) + std::to_string(r()));
    root_ = base_ / "root";
    fs::create_directories(root_);
    write_file(base_ / "secret.txt", "outside the root");
    write_file(base_ / "outside" / "x.txt", "outside too");
  }
  void TearDown() override {
    VoxlFixture::TearDown();
    std::error_code ec;
    fs::remove_all(base_, ec);
  }

  void start(std::vector<std::string> extra = {}) {
    extra.push_back("--files-root=" + root_.string());
    start_voxl(extra);
  }

  HttpAnswer get(const std::string& target, std::vector<std::pair<std::string, std::string>> headers = {}) {
    return http_request(voxl_->port(), {"GET", target, std::move(headers)});
  }
  HttpAnswer send(const std::string& method, const std::string& target, const std::string& body,
                  std::vector<std::pair<std::string, std::string>> headers = {}) {
    return http_request(voxl_->port(), {method, target, std::move(headers)}, body, 60s);
  }
  HttpAnswer announce(const std::string& path, uint64_t size) {
    return send("POST", "/files/upload", json{{"path", path}, {"size", size}}.dump());
  }
  HttpAnswer put(const std::string& id, uint64_t offset, const std::string& bytes) {
    return send("PUT", "/files/upload?id=" + id + "&offset=" + std::to_string(offset), bytes,
                {{"Content-Type", "application/octet-stream"}});
  }

  // A whole upload, chunk by chunk; the last answer.
  json upload(const std::string& path, const std::string& bytes) {
    const HttpAnswer a = announce(path, bytes.size());
    EXPECT_EQ(a.status, 201) << a.body;
    const std::string id = json::parse(a.body)["id"];
    json last;
    uint64_t offset = 0;
    do {
      const std::string piece = bytes.substr(offset, kChunk);
      const HttpAnswer p = put(id, offset, piece);
      EXPECT_EQ(p.status, 200) << p.body;
      last = json::parse(p.body);
      offset = last["offset"];
    } while (offset < bytes.size());
    EXPECT_TRUE(last["done"].get<bool>()) << last.dump();
    return last;
  }

  // Nothing changed beside the root.
  void expect_outside_untouched() {
    EXPECT_EQ(read_file(base_ / "secret.txt"), "outside the root");
    std::set<std::string> names;
    for (const auto& e : fs::directory_iterator(base_)) names.insert(e.path().filename().string());
    EXPECT_EQ(names, (std::set<std::string>{"outside", "root", "secret.txt"}));
    EXPECT_EQ(tree(base_ / "outside").size(), 1u);
  }

  fs::path base_, root_;
};

TEST_F(FilesTest, AnnouncesWhatItAllowsAndOffersThePanel) {
  start({"--max-upload-mb=5"});
  const HttpAnswer a = get("/files");
  ASSERT_EQ(a.status, 200) << a.body;
  const json caps = json::parse(a.body);
  EXPECT_EQ(caps["upload"], true);
  EXPECT_EQ(caps["download"], true);
  EXPECT_EQ(caps["upload_dir"], "Downloads");
  EXPECT_EQ(caps["max_upload_bytes"], 5u << 20);
  EXPECT_EQ(caps["chunk_bytes"], kChunk);
  StreamClient viewer(client_options());
  const json hello = hello_of(viewer);
  EXPECT_EQ(hello["files"], true);
}

TEST_F(FilesTest, UploadsTwoHundredMegabytesInChunksIntact) {
  start();
  const std::string bytes = random_bytes(200u << 20, 7);
  const json done = upload("big/blob.bin", bytes);
  EXPECT_EQ(done["name"], "big/blob.bin");
  EXPECT_EQ(done["path"], "Downloads/big/blob.bin");
  EXPECT_EQ(done["renamed"], false);
  const std::string on_disk = read_file(root_ / "Downloads" / "big" / "blob.bin");
  EXPECT_EQ(on_disk.size(), bytes.size());
  EXPECT_EQ(sha256(on_disk), sha256(bytes));
  // No partial file is left, and nothing executable was made.
  for (const auto& e : fs::recursive_directory_iterator(root_)) {
    EXPECT_EQ(e.path().filename().string().find(".voxl-upload-"), std::string::npos) << e.path();
    if (e.is_regular_file()) {
      EXPECT_EQ(e.status().permissions() & (fs::perms::owner_exec | fs::perms::group_exec | fs::perms::others_exec),
                fs::perms::none);
    }
  }
}

TEST_F(FilesTest, ATakenNameIsKeptAndTheNewFileGetsTheNextFreeOne) {
  start();
  write_file(root_ / "Downloads" / "report.pdf", "old");
  const json first = upload("report.pdf", "new one");
  EXPECT_EQ(first["name"], "report (1).pdf");
  EXPECT_EQ(first["renamed"], true);
  const json second = upload("report.pdf", "newer");
  EXPECT_EQ(second["name"], "report (2).pdf");
  EXPECT_EQ(read_file(root_ / "Downloads" / "report.pdf"), "old");
  EXPECT_EQ(read_file(root_ / "Downloads" / "report (1).pdf"), "new one");
  EXPECT_EQ(read_file(root_ / "Downloads" / "report (2).pdf"), "newer");
  const json empty = upload("empty.txt", "");
  EXPECT_EQ(empty["done"], true);
  EXPECT_TRUE(fs::exists(root_ / "Downloads" / "empty.txt"));
}

TEST_F(FilesTest, ResumesFromTheConfirmedOffsetAfterACut) {
  start();
  const std::string bytes = random_bytes(3 * kChunk + 123, 11);
  const HttpAnswer a = announce("resumed.bin", bytes.size());
  ASSERT_EQ(a.status, 201) << a.body;
  const std::string id = json::parse(a.body)["id"];
  ASSERT_EQ(put(id, 0, bytes.substr(0, kChunk)).status, 200);
  {
    // The second chunk is cut off half way: the connection drops.
    RawConnection cut(voxl_->port());
    const std::string head = "PUT /files/upload?id=" + id + "&offset=" + std::to_string(kChunk) +
                             " HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/octet-stream\r\n"
                             "Content-Length: " + std::to_string(kChunk) + "\r\n\r\n";
    ASSERT_TRUE(cut.send(head + bytes.substr(kChunk, kChunk / 2)));
    cut.close(true);
  }
  // What is confirmed is only what arrived whole.
  const HttpAnswer status = get("/files/upload?id=" + id);
  ASSERT_EQ(status.status, 200) << status.body;
  EXPECT_EQ(json::parse(status.body)["offset"], kChunk);
  // A chunk at the wrong offset is refused with the right one.
  const HttpAnswer wrong = put(id, 2 * kChunk, bytes.substr(2 * kChunk, kChunk));
  EXPECT_EQ(wrong.status, 409);
  EXPECT_EQ(json::parse(wrong.body)["offset"], kChunk);
  uint64_t offset = kChunk;
  json last;
  while (offset < bytes.size()) {
    const HttpAnswer p = put(id, offset, bytes.substr(offset, kChunk));
    ASSERT_EQ(p.status, 200) << p.body;
    last = json::parse(p.body);
    offset = last["offset"];
  }
  EXPECT_EQ(last["done"], true);
  EXPECT_EQ(sha256(read_file(root_ / "Downloads" / "resumed.bin")), sha256(bytes));
  EXPECT_EQ(get("/files/upload?id=" + id).status, 404);  // finished: gone
}

TEST_F(FilesTest, CancellingRemovesThePartialFile) {
  start();
  const HttpAnswer a = announce("gone.bin", 10);
  ASSERT_EQ(a.status, 201);
  const std::string id = json::parse(a.body)["id"];
  ASSERT_EQ(put(id, 0, "12345").status, 200);
  EXPECT_EQ(send("DELETE", "/files/upload?id=" + id, "").status, 204);
  EXPECT_EQ(put(id, 5, "67890").status, 404);
  EXPECT_FALSE(fs::exists(root_ / "Downloads" / "gone.bin"));
  EXPECT_TRUE(fs::is_empty(root_ / "Downloads"));
}

TEST_F(FilesTest, AFolderOfFiveHundredFilesGoesUpAndComesBackAsAZip) {
  start();
  std::map<std::string, std::string> sent;
  for (int i = 0; i < 500; ++i) {
    const std::string path = "tree/d" + std::to_string(i % 7) + "/sub" + std::to_string(i % 3) + "/f" +
                             std::to_string(i) + ".txt";
    sent[path.substr(5)] = "file " + std::to_string(i) + std::string(size_t(i), 'x');
    upload(path, sent[path.substr(5)]);
  }
  EXPECT_EQ(tree(root_ / "Downloads" / "tree"), sent);

  const HttpAnswer z = get("/files/download?path=Downloads%2Ftree");
  ASSERT_EQ(z.status, 200);
  EXPECT_EQ(z.header("content-type"), "application/zip");
  EXPECT_NE(z.header("content-disposition").find("filename=\"tree.zip\""), std::string::npos);
  std::map<std::string, std::string> unzipped;
  archive* a = archive_read_new();
  archive_read_support_format_zip(a);
  ASSERT_EQ(archive_read_open_memory(a, z.body.data(), z.body.size()), ARCHIVE_OK);
  archive_entry* e = nullptr;
  while (archive_read_next_header(a, &e) == ARCHIVE_OK) {
    if (archive_entry_filetype(e) != AE_IFREG) continue;
    std::string data(size_t(archive_entry_size(e)), '\0');
    ASSERT_EQ(archive_read_data(a, data.data(), data.size()), la_ssize_t(data.size()));
    unzipped[archive_entry_pathname(e)] = data;
  }
  archive_read_free(a);
  EXPECT_EQ(unzipped, sent);
}

TEST_F(FilesTest, DownloadsWithRangesAndUnicodeNames) {
  const std::string bytes = random_bytes(100000, 3);
  write_file(root_ / "docs" / "résumé ✓.bin", bytes);
  start();
  const std::string target = "/files/download?path=" + encode("docs/résumé ✓.bin");
  const HttpAnswer whole = get(target);
  ASSERT_EQ(whole.status, 200) << whole.body;
  EXPECT_EQ(whole.body, bytes);
  EXPECT_EQ(whole.header("accept-ranges"), "bytes");
  EXPECT_EQ(whole.header("content-disposition"),
            "attachment; filename=\"r_sum_ _.bin\"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%E2%9C%93.bin");
  const std::string etag = whole.header("etag");
  ASSERT_FALSE(etag.empty());

  const HttpAnswer part = get(target, {{"Range", "bytes=1000-1999"}});
  EXPECT_EQ(part.status, 206);
  EXPECT_EQ(part.body, bytes.substr(1000, 1000));
  EXPECT_EQ(part.header("content-range"), "bytes 1000-1999/100000");
  const HttpAnswer tail = get(target, {{"Range", "bytes=-10"}, {"If-Range", etag}});
  EXPECT_EQ(tail.status, 206);
  EXPECT_EQ(tail.body, bytes.substr(bytes.size() - 10));
  const HttpAnswer stale = get(target, {{"Range", "bytes=0-9"}, {"If-Range", "\"other\""}});
  EXPECT_EQ(stale.status, 200);
  EXPECT_EQ(stale.body.size(), bytes.size());
  const HttpAnswer past = get(target, {{"Range", "bytes=100000-"}});
  EXPECT_EQ(past.status, 416);
  EXPECT_EQ(past.header("content-range"), "bytes */100000");
  const HttpAnswer head = http_request(voxl_->port(), {"HEAD", target, {}});
  EXPECT_EQ(head.status, 200);
  EXPECT_EQ(head.header("content-length"), "100000");
  EXPECT_TRUE(head.body.empty());

  const HttpAnswer listing = get("/files/list?path=docs");
  ASSERT_EQ(listing.status, 200) << listing.body;
  const json l = json::parse(listing.body);
  ASSERT_EQ(l["entries"].size(), 1u);
  EXPECT_EQ(l["entries"][0]["name"], "résumé ✓.bin");
  EXPECT_EQ(l["entries"][0]["size"], 100000);
}

TEST_F(FilesTest, NoTraversalAtAnyEndpointOrParameter) {
  fs::create_symlink("../secret.txt", root_ / "up-link");
  fs::create_symlink(base_ / "outside", root_ / "out-dir");
  write_file(root_ / "inside.txt", "in");
  start();
  const std::vector<std::string> escapes = {
      "..", "../secret.txt", "%2e%2e%2fsecret.txt", "%2e%2e/secret.txt", "%252e%252e%252fsecret.txt",
      "..%2fsecret.txt", "..%5csecret.txt", "%2fetc%2fpasswd", "/etc/passwd", "a/../../secret.txt",
      "inside.txt%00.png", "up-link", "out-dir", "out-dir/x.txt", "out-dir%2f..%2f..%2fsecret.txt",
      std::string(300, 'a'), "%c0%ae%c0%ae/secret.txt", "....//secret.txt"};
  for (const std::string& e : escapes) {
    for (const char* endpoint : {"/files/list?path=", "/files/download?path="}) {
      const HttpAnswer a = get(endpoint + e);
      EXPECT_TRUE(a.status == 400 || a.status == 403 || a.status == 404) << endpoint << e << " -> " << a.status;
      EXPECT_EQ(a.body.find("outside"), std::string::npos) << endpoint << e;
    }
    for (const std::string& path : {e, "x/" + e}) {
      const HttpAnswer a = send("POST", "/files/upload", "{\"path\":\"" + path + "\",\"size\":3}");
      if (a.status == 201) {
        // A literal name beneath the upload folder (e.g. "%2e%2e"): harmless, and it
        // must land there.
        const std::string id = json::parse(a.body)["id"];
        const HttpAnswer p = put(id, 0, "abc");
        ASSERT_EQ(p.status, 200) << p.body;
        EXPECT_TRUE(json::parse(p.body)["path"].get<std::string>().starts_with("Downloads/")) << path;
      } else {
        EXPECT_TRUE(a.status == 400 || a.status == 403 || a.status == 404) << path << " -> " << a.status;
      }
    }
  }
  for (const char* raw_json : {"{\"path\":\"..\\\\secret.txt\",\"size\":3}", "{\"path\":\"a\\u0000b\",\"size\":3}",
                               "{\"path\":\"/abs\",\"size\":-1}", "{\"path\":5,\"size\":3}", "[1,2]", "not json",
                               "{\"path\":\"a\",\"size\":3.5}", "{\"path\":\"a\",\"size\":1e30}"}) {
    const HttpAnswer a = send("POST", "/files/upload", raw_json);
    EXPECT_EQ(a.status, 400) << raw_json << " -> " << a.body;
  }
  for (const char* id : {"../../secret.txt", "%2e%2e%2fsecret", "", "0"}) {
    EXPECT_EQ(put(std::string(id), 0, "abc").status, 404) << id;
    EXPECT_EQ(get("/files/upload?id=" + std::string(id)).status, 404) << id;
    EXPECT_EQ(send("DELETE", "/files/upload?id=" + std::string(id), "").status, 404) << id;
  }
  EXPECT_EQ(get("/files/list?path=x&path=y").status, 400);
  EXPECT_EQ(get("/files/list?bogus=1").status, 400);
  expect_outside_untouched();
  // The link that stays inside is followed; the rest of the root is intact.
  EXPECT_EQ(get("/files/download?path=inside.txt").body, "in");
}

TEST_F(FilesTest, EachDirectionFollowsTheFlag) {
  write_file(root_ / "a.txt", "a");
  start({"--file-transfers=download"});
  EXPECT_EQ(get("/files/list").status, 200);
  EXPECT_EQ(get("/files/download?path=a.txt").status, 200);
  EXPECT_EQ(announce("b.txt", 1).status, 403);
  EXPECT_FALSE(fs::exists(root_ / "Downloads"));
}

TEST_F(FilesTest, UploadOnlyServersDoNotShowTheDisk) {
  write_file(root_ / "a.txt", "a");
  start({"--file-transfers=upload"});
  EXPECT_EQ(get("/files/list").status, 403);
  EXPECT_EQ(get("/files/download?path=a.txt").status, 403);
  upload("b.txt", "b");
  EXPECT_EQ(read_file(root_ / "Downloads" / "b.txt"), "b");
}

TEST_F(FilesTest, NoneTurnsThePanelAndTheEndpointsOff) {
  start({"--file-transfers=none"});
  EXPECT_EQ(get("/files").status, 404);
  EXPECT_EQ(get("/files/list").status, 404);
  StreamClient viewer(client_options());
  const json hello = hello_of(viewer);
  EXPECT_EQ(hello["files"], false);
}

TEST_F(FilesTest, ViewOnlyViewersAndForeignPagesAreRefused) {
  write_file(root_ / "a.txt", "a");
  start({"--enable-basic-auth", "--basic-auth-password=full", "--basic-auth-viewonly-password=watch"});
  const auto watcher = basic_authorization("voxl", "watch");
  const auto owner = basic_authorization("voxl", "full");
  for (const char* target : {"/files", "/files/list", "/files/download?path=a.txt"})
    EXPECT_EQ(get(target, {{"Authorization", watcher}}).status, 403) << target;
  EXPECT_EQ(http_request(voxl_->port(), {"POST", "/files/upload", {{"Authorization", watcher}}},
                         "{\"path\":\"x\",\"size\":1}")
                .status,
            403);
  EXPECT_EQ(get("/files/list", {{"Authorization", owner}}).status, 200);
  EXPECT_EQ(get("/files/list", {{"Authorization", owner}, {"Origin", "http://evil.example"}}).status, 403);
  EXPECT_EQ(http_request(voxl_->port(),
                         {"POST", "/files/upload", {{"Authorization", owner}, {"Origin", "http://evil.example"}}},
                         "{\"path\":\"x\",\"size\":1}")
                .status,
            403);
  EXPECT_EQ(get("/files/list").status, 401);
  EXPECT_FALSE(fs::exists(root_ / "Downloads"));
}

TEST_F(FilesTest, SizesAreCheckedBeforeAndWhileWriting) {
  start({"--max-upload-mb=1"});
  const HttpAnswer big = announce("big.bin", (1u << 20) + 1);
  EXPECT_EQ(big.status, 413);
  EXPECT_NE(json::parse(big.body)["error"].get<std::string>().find("too big"), std::string::npos);
  const HttpAnswer huge = announce("huge.bin", uint64_t(1) << 52);
  EXPECT_EQ(huge.status, 413);
  // More bytes than announced are refused; so is a body over a chunk.
  const HttpAnswer a = announce("small.bin", 4);
  ASSERT_EQ(a.status, 201);
  const std::string id = json::parse(a.body)["id"];
  EXPECT_EQ(put(id, 0, "12345").status, 400);
  {
    // A body over a chunk is refused from its Content-Length, before it is
    // read (sent on its own so the answer cannot be lost to a reset).
    RawConnection over(voxl_->port());
    ASSERT_TRUE(over.send("PUT /files/upload?id=" + id + "&offset=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                          "Content-Type: application/octet-stream\r\nContent-Length: " +
                          std::to_string(kChunk + 1) + "\r\n\r\n"));
    EXPECT_EQ(over.read_status(30s), 413);
  }
  EXPECT_EQ(put(id, 0, "1234").status, 200);
  EXPECT_EQ(read_file(root_ / "Downloads" / "small.bin"), "1234");
}

TEST_F(FilesTest, NoSpaceIsSaidBeforeWriting) {
  start();
  const HttpAnswer a = announce("whale.bin", uint64_t(1) << 50);  // a petabyte
  EXPECT_EQ(a.status, 507) << a.body;
  EXPECT_NE(json::parse(a.body)["error"].get<std::string>().find("no space"), std::string::npos);
}

}  // namespace
}  // namespace voxl::testing
