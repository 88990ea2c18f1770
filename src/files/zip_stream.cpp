#include "files/zip_stream.h"

#include <archive.h>
#include <archive_entry.h>

#include <algorithm>
#include <cstring>
#include <new>
#include <utility>
#include <vector>

#include "base/utf8.h"

namespace voxl::files {
namespace {

// File data is read in blocks of this size: one block, plus the odd header,
// is what a step of the walk adds to the output.
constexpr size_t kReadBytes = 64 * 1024;
// A zip stores a name's length in 16 bits.
constexpr size_t kMaxZipName = 0xffff;

std::string join(const std::string& rel, const std::string& name) {
  return rel.empty() ? name : rel + "/" + name;
}

// Errors that mean "this entry is not there for us (any more)": the entry
// is left out and the walk goes on.
bool skippable(platform::JailError e) {
  using platform::JailError;
  return e == JailError::kNotFound || e == JailError::kNotAllowed || e == JailError::kNotADirectory ||
         e == JailError::kIsADirectory;
}

struct ArchiveFree {
  void operator()(archive* a) const { archive_write_free(a); }
};
struct EntryFree {
  void operator()(archive_entry* e) const { archive_entry_free(e); }
};

}  // namespace

struct ZipStream::Impl {
  // One folder being walked.
  struct Frame {
    std::string rel;     // beneath the jail's root
    std::string prefix;  // its name in the zip, with a trailing '/'; "" for the zipped folder
    std::string version;  // the jail's version of it, to notice a symlink leading back up
    std::vector<platform::DirEntry> entries;
    size_t index = 0;
  };

  // The file whose data is being written.
  struct OpenFile {
    platform::OwnedFile file;
    uint64_t size = 0;  // announced in its header: exactly this many bytes are written
    uint64_t written = 0;
    bool ended = false;  // it shrank: the rest is zeros
  };

  enum class State { kStart, kWalking, kDone, kFailed };

  Impl(const platform::FileJail& j, std::string f, ZipLimits l) : jail(j), folder(std::move(f)), limits(l) {}
  // Freeing a writer that was not closed makes it write the rest of the
  // zip: that goes nowhere, and must happen while the members still exist.
  ~Impl() { release_writer(); }

  const platform::FileJail& jail;
  const std::string folder;
  const ZipLimits limits;

  State state = State::kStart;
  std::string error;
  std::unique_ptr<archive, ArchiveFree> writer;
  std::unique_ptr<archive_entry, EntryFree> entry;
  std::vector<Frame> stack;
  OpenFile current;
  bool in_file = false;
  std::vector<char> block;

  // What libarchive wrote and next() has not handed out yet, from `taken`.
  std::string out;
  size_t taken = 0;
  bool discard = false;  // output is dropped: the writer is being freed

  size_t seen = 0;  // names met while walking, for max_entries
  size_t written_entries = 0;
  size_t skipped_names = 0;
  size_t skipped_other = 0;
  uint64_t bytes_out = 0;

  static la_ssize_t on_write(archive*, void* self, const void* data, size_t n) {
    auto* impl = static_cast<Impl*>(self);
    if (impl->discard) return static_cast<la_ssize_t>(n);
    try {
      impl->out.append(static_cast<const char*>(data), n);
    } catch (const std::bad_alloc&) {
      return -1;
    }
    return static_cast<la_ssize_t>(n);
  }

  void fail(std::string message) {
    if (state == State::kFailed) return;
    state = State::kFailed;
    error = std::move(message);
    current = OpenFile{};
    in_file = false;
    stack.clear();
    release_writer();
  }

  // Frees the writer and the central directory it holds; anything it
  // still writes on the way out is dropped.
  void release_writer() {
    discard = true;
    writer.reset();
    entry.reset();
  }

  void fail_archive(const char* what) {
    const char* detail = writer ? archive_error_string(writer.get()) : nullptr;
    fail(std::string(what) + ": " + (detail ? detail : "libarchive failed"));
  }

  bool open_writer() {
    writer.reset(archive_write_new());
    entry.reset(archive_entry_new());
    if (!writer || !entry) {
      fail("out of memory for the zip writer");
      return false;
    }
    archive* a = writer.get();
    // Stored, never deflated: the CPU is the video encoder's. Names are
    // written as UTF-8 and flagged so (general purpose bit 11), which is
    // what keeps non-ASCII names intact in other unzip tools. Zip64 is left
    // to the writer's default, which turns it on exactly where a size, an
    // offset or the entry count needs it ("zip64" would force it on every
    // entry, "!zip64" would refuse archives past 4 GiB).
    //
    // A file's size is announced in its local header before its data, and
    // the writer always follows the data with a data descriptor (it learns
    // the CRC only at the end). We still write exactly the announced size
    // (see step_file): readers that go by the local header, as streaming
    // unzippers do, then find the next header where it says.
    if (archive_write_set_format_zip(a) != ARCHIVE_OK ||
        archive_write_set_format_option(a, "zip", "compression", "store") != ARCHIVE_OK ||
        archive_write_set_format_option(a, "zip", "hdrcharset", "UTF-8") != ARCHIVE_OK) {
      fail_archive("cannot set up the zip writer");
      return false;
    }
    // No blocking: every write reaches on_write at once, and nothing pads
    // the last block, so the stream ends exactly where the zip does.
    if (archive_write_set_bytes_per_block(a, 0) != ARCHIVE_OK ||
        archive_write_set_bytes_in_last_block(a, 1) != ARCHIVE_OK ||
        archive_write_open(a, this, nullptr, &Impl::on_write, nullptr) != ARCHIVE_OK) {
      fail_archive("cannot open the zip writer");
      return false;
    }
    return true;
  }

  // Lists folder `rel` into a new frame; false when it was left out or the
  // stream failed.
  bool push_folder(const std::string& rel, std::string prefix, std::string version) {
    Frame frame;
    frame.rel = rel;
    frame.prefix = std::move(prefix);
    frame.version = std::move(version);
    const size_t room = limits.max_entries - std::min(seen, limits.max_entries);
    bool truncated = false;
    const platform::JailStatus st = jail.list(rel, room, frame.entries, truncated);
    if (!st) {
      if (!stack.empty() && skippable(st.error)) {
        ++skipped_other;
        return false;
      }
      fail("cannot list " + (rel.empty() ? std::string("the root") : rel) + ": " + st.message);
      return false;
    }
    if (truncated || frame.entries.size() > room) {
      fail("the folder has more than " + std::to_string(limits.max_entries) + " entries");
      return false;
    }
    seen += frame.entries.size();
    stack.push_back(std::move(frame));
    return true;
  }

  bool write_header(const std::string& name, bool folder_entry, uint64_t size, int64_t modified_ms) {
    archive_entry* e = entry.get();
    archive_entry_clear(e);
    archive_entry_set_pathname_utf8(e, name.c_str());
    archive_entry_set_filetype(e, folder_entry ? AE_IFDIR : AE_IFREG);
    archive_entry_set_perm(e, folder_entry ? 0755 : 0644);
    archive_entry_set_size(e, static_cast<la_int64_t>(size));
    // Floor division, so times before 1970 keep a nanosecond part in range.
    int64_t sec = modified_ms / 1000;
    int64_t ms = modified_ms % 1000;
    if (ms < 0) {
      sec -= 1;
      ms += 1000;
    }
    archive_entry_set_mtime(e, static_cast<time_t>(sec), static_cast<long>(ms * 1000000));
    const int r = archive_write_header(writer.get(), e);
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
      fail_archive("cannot write the zip entry header");
      return false;
    }
    ++written_entries;
    return true;
  }

  bool finish_entry() {
    const int r = archive_write_finish_entry(writer.get());
    if (r != ARCHIVE_OK && r != ARCHIVE_WARN) {
      fail_archive("cannot finish a zip entry");
      return false;
    }
    return true;
  }

  void start() {
    platform::FileInfo info;
    const platform::JailStatus st = jail.stat(folder, info);
    if (!st) {
      fail("cannot open " + (folder.empty() ? std::string("the root") : folder) + ": " + st.message);
      return;
    }
    if (info.kind != platform::FileInfo::Kind::kDirectory) {
      fail(folder + " is not a folder");
      return;
    }
    if (!open_writer()) return;
    block.resize(kReadBytes);
    if (!push_folder(folder, "", info.version)) return;
    state = State::kWalking;
  }

  // Writes the next block of the open file, or ends its entry.
  void step_file() {
    OpenFile& f = current;
    const size_t want = static_cast<size_t>(std::min<uint64_t>(kReadBytes, f.size - f.written));
    if (want == 0) {
      // Anything the file gained since it was opened is left out: the size
      // in the header is what the zip's reader relies on.
      current = OpenFile{};
      in_file = false;
      finish_entry();
      return;
    }
    size_t got = 0;
    if (!f.ended) {
      std::string why;
      if (!platform::read_at(f.file.get(), block.data(), want, f.written, got, why)) {
        fail("cannot read a file: " + why);
        return;
      }
      if (got < want) f.ended = true;  // it shrank
    }
    // A file that shrank is padded with zeros up to the size announced.
    if (got < want) std::memset(block.data() + got, 0, want - got);
    const la_ssize_t w = archive_write_data(writer.get(), block.data(), want);
    if (w < 0 || static_cast<size_t>(w) != want) {
      fail_archive("cannot write file data to the zip");
      return;
    }
    f.written += want;
  }

  // Takes the next name of the innermost folder.
  void step_walk() {
    Frame& top = stack.back();
    if (top.index == top.entries.size()) {
      stack.pop_back();
      if (stack.empty()) {
        if (archive_write_close(writer.get()) != ARCHIVE_OK) {
          fail_archive("cannot finish the zip");
          return;
        }
        state = State::kDone;
        release_writer();  // the central directory is in `out` now
      }
      return;
    }
    const platform::DirEntry& d = top.entries[top.index++];
    const std::string& name = d.name;
    if (!decode_utf8(name)) {
      ++skipped_names;
      return;
    }
    using Kind = platform::FileInfo::Kind;
    const bool folder_entry = d.info.kind == Kind::kDirectory;
    if (d.info.kind == Kind::kOther) {
      ++skipped_other;
      return;
    }
    std::string zip_name = top.prefix + name;
    if (zip_name.size() + (folder_entry ? 1 : 0) > kMaxZipName) {
      ++skipped_names;
      return;
    }
    const std::string rel = join(top.rel, name);
    if (folder_entry) {
      // A symlink beneath the root may lead back to a folder being walked.
      if (!d.info.version.empty()) {
        for (const Frame& f : stack) {
          if (f.version == d.info.version) {
            ++skipped_other;
            return;
          }
        }
      }
      if (stack.size() > limits.max_depth) {
        fail("folders are nested more than " + std::to_string(limits.max_depth) + " levels deep");
        return;
      }
      zip_name += '/';
      const int64_t modified = d.info.modified_ms;
      // `top` and `d` are not used past this point: the push may move them.
      if (!push_folder(rel, zip_name, d.info.version)) return;
      if (!write_header(zip_name, true, 0, modified)) return;
      finish_entry();
      return;
    }
    OpenFile f;
    platform::FileInfo info;
    const platform::JailStatus st = jail.open_read(rel, f.file, info);
    if (!st) {
      if (skippable(st.error)) {
        ++skipped_other;
        return;
      }
      fail("cannot open " + rel + ": " + st.message);
      return;
    }
    f.size = info.size;
    if (!write_header(zip_name, false, info.size, info.modified_ms)) return;
    current = std::move(f);
    in_file = true;
  }

  void step() {
    switch (state) {
      case State::kStart:
        start();
        break;
      case State::kWalking:
        if (in_file)
          step_file();
        else
          step_walk();
        break;
      case State::kDone:
      case State::kFailed:
        break;
    }
  }

  Piece next() {
    Piece piece;
    if (state == State::kFailed) {
      piece.error = error;
      return piece;
    }
    if (taken == out.size()) {
      out.clear();
      taken = 0;
      while (out.size() < kMaxPieceBytes && state != State::kDone && state != State::kFailed) step();
      if (state == State::kFailed) {
        out.clear();
        piece.error = error;
        return piece;
      }
    }
    const size_t n = std::min(kMaxPieceBytes, out.size() - taken);
    if (n == 0) {
      piece.done = true;
      return piece;
    }
    piece.bytes = std::string_view(out).substr(taken, n);
    taken += n;
    bytes_out += n;
    return piece;
  }
};

ZipStream::ZipStream(const platform::FileJail& jail, std::string folder, ZipLimits limits)
    : impl_(std::make_unique<Impl>(jail, std::move(folder), limits)) {}

ZipStream::~ZipStream() = default;

ZipStream::Piece ZipStream::next() { return impl_->next(); }

size_t ZipStream::entries() const { return impl_->written_entries; }
size_t ZipStream::skipped_names() const { return impl_->skipped_names; }
size_t ZipStream::skipped_other() const { return impl_->skipped_other; }
uint64_t ZipStream::bytes_out() const { return impl_->bytes_out; }

}  // namespace voxl::files
