// Folder downloads as zip files: a real folder tree zipped through the file
// jail piece by piece, then read back with libarchive's own reader.
#include <archive.h>
#include <archive_entry.h>
#include <fcntl.h>
#include <gtest/gtest.h>
#include <locale.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <string>

#include "files/zip_stream.h"
#include "platform/file_jail.h"

namespace voxl::files {
namespace VOXL_TEST_FILE {

namespace fs = std::filesystem;

struct Item {
  bool folder = false;
  std::string data;
  int64_t mtime = 0;
};
using Listing = std::map<std::string, Item>;

void write_file(const fs::path& p, const std::string& data) {
  std::ofstream f(p, std::ios::binary);
  f.write(data.data(), static_cast<std::streamsize>(data.size()));
  ASSERT_TRUE(f.good()) << p;
}

std::string random_bytes(size_t n, unsigned seed) {
  std::mt19937 gen(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(gen() & 0xff);
  return s;
}

void set_mtime(const fs::path& p, time_t sec, long nsec) {
  timespec times[2] = {{sec, nsec}, {sec, nsec}};
  ASSERT_EQ(utimensat(AT_FDCWD, p.c_str(), times, AT_SYMLINK_NOFOLLOW), 0) << p;
}

struct Result {
  std::string zip;
  std::string error;
  size_t pieces = 0;
};

// Pulls the whole stream, checking the size of every piece.
Result pull_all(ZipStream& zs) {
  Result r;
  for (int i = 0; i < 1000000; ++i) {
    ZipStream::Piece p = zs.next();
    if (!p.error.empty()) {
      EXPECT_TRUE(p.bytes.empty());
      r.error = p.error;
      return r;
    }
    if (p.done) {
      EXPECT_TRUE(p.bytes.empty());
      return r;
    }
    EXPECT_FALSE(p.bytes.empty()) << "a piece that is neither the end nor an error has bytes";
    EXPECT_LE(p.bytes.size(), ZipStream::kMaxPieceBytes);
    r.zip.append(p.bytes);
    ++r.pieces;
  }
  ADD_FAILURE() << "the stream never ended";
  return r;
}

// Reads a zip back with libarchive: the seekable reader goes by the central
// directory, the streamable one by the local headers; both must agree.
Listing read_zip(const std::string& zip, bool streamable) {
  Listing out;
  // libarchive's reader turns names into the current locale's charset,
  // which cannot hold "✓" in the C locale the tests run in: read with a
  // UTF-8 locale on this thread only.
  locale_t utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", locale_t{});
  EXPECT_NE(utf8, locale_t{}) << "no C.UTF-8 locale";
  const locale_t before = utf8 ? uselocale(utf8) : locale_t{};
  archive* a = archive_read_new();
  if (streamable)
    archive_read_support_format_zip_streamable(a);
  else
    archive_read_support_format_zip_seekable(a);
  EXPECT_EQ(archive_read_open_memory(a, zip.data(), zip.size()), ARCHIVE_OK) << archive_error_string(a);
  archive_entry* e = nullptr;
  int r = ARCHIVE_OK;
  while ((r = archive_read_next_header(a, &e)) == ARCHIVE_OK) {
    const char* name = archive_entry_pathname_utf8(e);
    EXPECT_NE(name, nullptr);
    if (!name) break;
    Item item;
    item.folder = archive_entry_filetype(e) == AE_IFDIR;
    item.mtime = archive_entry_mtime(e);
    char buf[65536];
    la_ssize_t n = 0;
    while ((n = archive_read_data(a, buf, sizeof buf)) > 0) item.data.append(buf, static_cast<size_t>(n));
    EXPECT_EQ(n, 0) << name << ": " << archive_error_string(a);
    EXPECT_TRUE(out.emplace(name, std::move(item)).second) << "twice in the zip: " << name;
  }
  EXPECT_EQ(r, ARCHIVE_EOF) << archive_error_string(a);
  archive_read_free(a);
  if (utf8) {
    uselocale(before);
    freelocale(utf8);
  }
  return out;
}

uint32_t le32(const std::string& s, size_t at) {
  uint32_t v = 0;
  for (int i = 3; i >= 0; --i) v = (v << 8) | static_cast<unsigned char>(s[at + static_cast<size_t>(i)]);
  return v;
}

class ZipStreamTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::path(::testing::TempDir()) / "voxl-zip-XXXXXX").string();
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    base_ = tmpl;
    root_ = base_ / "root";
    fs::create_directory(root_);
    write_file(base_ / "secret.txt", "outside the root");
  }
  void TearDown() override {
    jail_.reset();
    std::error_code ec;
    fs::remove_all(base_, ec);
  }
  platform::FileJail& jail() {
    if (!jail_) {
      std::string error;
      jail_ = platform::FileJail::open(root_.string(), error);
      EXPECT_TRUE(jail_) << error;
    }
    return *jail_;
  }

  fs::path base_;
  fs::path root_;
  std::unique_ptr<platform::FileJail> jail_;
};

TEST_F(ZipStreamTest, TreeRoundTripsThroughLibarchive) {
  const std::string big = random_bytes(3 * 1024 * 1024 + 12345, 7);
  const std::string unicode = "r\xc3\xa9sum\xc3\xa9 \xe2\x9c\x93.txt";  // "résumé ✓.txt"
  fs::create_directories(root_ / "a" / "b");
  fs::create_directory(root_ / "empty dir");
  write_file(root_ / "a" / "b" / "deep.txt", "deep down");
  write_file(root_ / "a" / "one.txt", "one");
  write_file(root_ / "empty.bin", "");
  write_file(root_ / "random.bin", big);
  write_file(root_ / unicode, "unicode name");
  write_file(root_ / "bad\xff\xfe.txt", "name is not UTF-8");
  fs::create_symlink(base_ / "secret.txt", root_ / "out-absolute");
  fs::create_symlink("../secret.txt", root_ / "out-relative");
  fs::create_symlink("../..", root_ / "a" / "out-folder");
  fs::create_symlink("a/b/deep.txt", root_ / "in-link");
  ASSERT_EQ(mkfifo((root_ / "pipe").c_str(), 0600), 0);
  set_mtime(root_ / "random.bin", 1600000000, 500000000);
  set_mtime(root_ / "a" / "b", 1500000000, 0);

  ZipStream zs(jail(), "");
  const Result r = pull_all(zs);
  ASSERT_EQ(r.error, "");
  EXPECT_GT(r.pieces, big.size() / ZipStream::kMaxPieceBytes) << "the big file came in many pieces";
  EXPECT_EQ(zs.bytes_out(), r.zip.size());
  EXPECT_EQ(zs.skipped_names(), 1u);
  EXPECT_EQ(zs.skipped_other(), 4u) << "three symlinks out of the root and a pipe";

  const Listing want = {
      {"a/", {true, "", 0}},
      {"a/b/", {true, "", 0}},
      {"a/b/deep.txt", {false, "deep down", 0}},
      {"a/one.txt", {false, "one", 0}},
      {"empty dir/", {true, "", 0}},
      {"empty.bin", {false, "", 0}},
      {"random.bin", {false, big, 0}},
      {unicode, {false, "unicode name", 0}},
      {"in-link", {false, "deep down", 0}},
  };
  EXPECT_EQ(zs.entries(), want.size());
  for (bool streamable : {false, true}) {
    SCOPED_TRACE(streamable ? "streamable reader" : "seekable reader");
    const Listing got = read_zip(r.zip, streamable);
    ASSERT_EQ(got.size(), want.size());
    for (const auto& [name, item] : want) {
      auto it = got.find(name);
      ASSERT_NE(it, got.end()) << "missing: " << name;
      EXPECT_EQ(it->second.folder, item.folder) << name;
      EXPECT_TRUE(it->second.data == item.data) << name << ": contents differ (" << it->second.data.size()
                                                << " bytes against " << item.data.size() << ")";
    }
    EXPECT_EQ(got.at("random.bin").mtime, 1600000000);
    EXPECT_EQ(got.at("a/b/").mtime, 1500000000);
  }
}

TEST_F(ZipStreamTest, EndsWithTheEndOfCentralDirectoryAndNoPadding) {
  write_file(root_ / "x.txt", "x");
  fs::create_directory(root_ / "d");
  ZipStream zs(jail(), "");
  const Result r = pull_all(zs);
  ASSERT_EQ(r.error, "");
  ASSERT_GE(r.zip.size(), 22u);
  const size_t eocd = r.zip.size() - 22;
  EXPECT_EQ(r.zip.compare(eocd, 4, "PK\x05\x06"), 0) << "the last 22 bytes are the end record";
  EXPECT_EQ(r.zip[eocd + 20], 0);
  EXPECT_EQ(r.zip[eocd + 21], 0) << "no comment";
  // The central directory runs from its offset right up to the end record.
  const uint32_t cd_size = le32(r.zip, eocd + 12);
  const uint32_t cd_offset = le32(r.zip, eocd + 16);
  EXPECT_EQ(uint64_t{cd_offset} + cd_size, eocd);
  EXPECT_EQ(r.zip.compare(0, 4, "PK\x03\x04"), 0);
  // The end stays the end.
  EXPECT_TRUE(zs.next().done);
  EXPECT_TRUE(zs.next().done);
}

TEST_F(ZipStreamTest, EmptyFolderIsAnEmptyZip) {
  ZipStream zs(jail(), "");
  const Result r = pull_all(zs);
  ASSERT_EQ(r.error, "");
  // Only the end record, naming no entries (libarchive's reader does not
  // recognise a zip without entries, so the bytes are checked by hand).
  ASSERT_EQ(r.zip.size(), 22u);
  EXPECT_EQ(r.zip.compare(0, 4, "PK\x05\x06"), 0);
  EXPECT_EQ(r.zip.find_first_not_of('\0', 4), std::string::npos) << "no entries, no comment";
  EXPECT_EQ(zs.entries(), 0u);
}

TEST_F(ZipStreamTest, NamesAreRelativeToTheZippedFolder) {
  fs::create_directories(root_ / "top" / "sub" / "inner");
  write_file(root_ / "top" / "sub" / "f.txt", "f");
  write_file(root_ / "elsewhere.txt", "not in the zip");
  ZipStream zs(jail(), "top/sub");
  const Result r = pull_all(zs);
  ASSERT_EQ(r.error, "");
  const Listing got = read_zip(r.zip, false);
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(got.count("inner/"));
  EXPECT_EQ(got.at("f.txt").data, "f");
}

TEST_F(ZipStreamTest, FolderSymlinkBackUpTheTreeIsLeftOut) {
  fs::create_directories(root_ / "a" / "b");
  write_file(root_ / "a" / "b" / "f.txt", "f");
  fs::create_symlink("..", root_ / "a" / "b" / "up");     // to a/
  fs::create_symlink("../..", root_ / "a" / "b" / "top");  // to the root
  ZipStream zs(jail(), "");
  const Result r = pull_all(zs);
  ASSERT_EQ(r.error, "");
  const Listing got = read_zip(r.zip, false);
  EXPECT_EQ(got.size(), 3u);
  EXPECT_TRUE(got.count("a/b/f.txt"));
  EXPECT_EQ(zs.skipped_other(), 2u);
}

TEST_F(ZipStreamTest, TooManyEntriesFailsTheStream) {
  fs::create_directory(root_ / "d");
  for (int i = 0; i < 20; ++i) write_file(root_ / "d" / ("f" + std::to_string(i)), "x");
  {
    ZipStream zs(jail(), "", ZipLimits{.max_entries = 21, .max_depth = 64});
    const Result r = pull_all(zs);
    EXPECT_EQ(r.error, "") << "21 names fit";
  }
  ZipStream zs(jail(), "", ZipLimits{.max_entries = 20, .max_depth = 64});
  const Result r = pull_all(zs);
  EXPECT_NE(r.error.find("more than 20 entries"), std::string::npos) << r.error;
  ZipStream::Piece again = zs.next();
  EXPECT_EQ(again.error, r.error) << "the error stays";
  EXPECT_FALSE(again.done);
}

TEST_F(ZipStreamTest, TooDeepFailsTheStream) {
  fs::create_directories(root_ / "1" / "2" / "3" / "4");
  {
    ZipStream zs(jail(), "", ZipLimits{.max_entries = 100, .max_depth = 4});
    EXPECT_EQ(pull_all(zs).error, "");
  }
  ZipStream zs(jail(), "", ZipLimits{.max_entries = 100, .max_depth = 3});
  const Result r = pull_all(zs);
  EXPECT_NE(r.error.find("nested more than 3"), std::string::npos) << r.error;
}

TEST_F(ZipStreamTest, MissingFolderOrFileFails) {
  write_file(root_ / "file.txt", "x");
  {
    ZipStream zs(jail(), "file.txt");
    EXPECT_NE(pull_all(zs).error, "");
  }
  ZipStream zs(jail(), "nothing/here");
  EXPECT_NE(pull_all(zs).error, "");
}

// The stream reads the file after its header is out; a file that shrinks
// or grows meanwhile still gets exactly the size the header announced.
TEST_F(ZipStreamTest, FileThatShrinksIsPaddedAndOneThatGrowsIsCut) {
  const size_t size = 2 * 1024 * 1024;
  const std::string data = random_bytes(size, 11);
  for (bool grow : {false, true}) {
    SCOPED_TRACE(grow ? "grows" : "shrinks");
    const fs::path p = root_ / "changing.bin";
    write_file(p, data);
    ZipStream zs(jail(), "");
    std::string zip;
    ZipStream::Piece first = zs.next();
    ASSERT_EQ(first.error, "");
    ASSERT_FALSE(first.done);
    zip.append(first.bytes);
    if (grow) {
      std::ofstream f(p, std::ios::binary | std::ios::app);
      f << random_bytes(300000, 12);
    } else {
      ASSERT_EQ(truncate(p.c_str(), 1000000), 0);
    }
    const Result rest = pull_all(zs);
    ASSERT_EQ(rest.error, "");
    zip += rest.zip;
    for (bool streamable : {false, true}) {
      const Listing got = read_zip(zip, streamable);
      ASSERT_EQ(got.size(), 1u);
      const std::string& body = got.at("changing.bin").data;
      ASSERT_EQ(body.size(), size);
      if (grow) {
        EXPECT_TRUE(body == data);
      } else {
        EXPECT_TRUE(body.compare(0, 1000000, data, 0, 1000000) == 0);
        EXPECT_EQ(body.find_first_not_of('\0', 1000000), std::string::npos) << "zeros after the cut";
      }
    }
    fs::remove(p);
  }
}

}  // namespace
}  // namespace voxl::files
