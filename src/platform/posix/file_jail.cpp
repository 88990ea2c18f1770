// The file jail on Linux: openat2(RESOLVE_BENEATH) from the root's
// descriptor, or a walk of O_NOFOLLOW opens where the kernel has no openat2.
#include "platform/file_jail.h"
#include "platform/jail_path.h"

#include <dirent.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace voxl::platform {

namespace {

JailStatus failure(int err, const std::string& what) {
  JailStatus s;
  switch (err) {
    case ENOENT: s.error = JailError::kNotFound; break;
    case EXDEV:  // RESOLVE_BENEATH: the path tried to leave the root
    case ELOOP:  // a symlink where the walk takes none, or too many
    case EACCES:
    case EPERM:
    case EROFS: s.error = JailError::kNotAllowed; break;
    case EEXIST:
    case ENOTEMPTY: s.error = JailError::kExists; break;
    case ENOTDIR: s.error = JailError::kNotADirectory; break;
    case EISDIR: s.error = JailError::kIsADirectory; break;
    case ENOSPC:
    case EDQUOT:
    case EFBIG: s.error = JailError::kNoSpace; break;
    case ENAMETOOLONG: s.error = JailError::kTooLong; break;
    default: s.error = JailError::kIo; break;
  }
  s.message = what + ": " + std::strerror(err);
  return s;
}

JailStatus refused(JailError e, std::string message) { return {e, std::move(message)}; }

FileInfo describe(const struct stat& st) {
  FileInfo info;
  info.kind = S_ISREG(st.st_mode)   ? FileInfo::Kind::kFile
              : S_ISDIR(st.st_mode) ? FileInfo::Kind::kDirectory
                                    : FileInfo::Kind::kOther;
  info.size = S_ISREG(st.st_mode) ? uint64_t(st.st_size) : 0;
  info.modified_ms = int64_t(st.st_mtim.tv_sec) * 1000 + st.st_mtim.tv_nsec / 1000000;
  info.version = std::to_string(st.st_dev) + "-" + std::to_string(st.st_ino) + "-" + std::to_string(st.st_size) +
                 "-" + std::to_string(st.st_ctim.tv_sec) + "." + std::to_string(st.st_ctim.tv_nsec);
  return info;
}

}  // namespace

struct FileJail::Impl {
  std::string root;
  int root_fd = -1;
  bool have_openat2 = true;

  ~Impl() {
    if (root_fd >= 0) ::close(root_fd);
  }

  // Opens `rel` beneath the root with `flags`; -1 with errno set on failure.
  // "" is the root itself.
  int open_beneath(const std::string& rel, int flags, mode_t mode = 0) const {
    const char* path = rel.empty() ? "." : rel.c_str();
    if (have_openat2) {
      struct open_how how {};
      how.flags = uint64_t(flags | O_CLOEXEC);
      how.mode = (flags & O_CREAT) ? mode : 0;
      how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
      const long fd = ::syscall(SYS_openat2, root_fd, path, &how, sizeof how);
      if (fd >= 0 || errno != ENOSYS) return int(fd);
    }
    return walk_open(rel, flags, mode);
  }

  // Without openat2: one component at a time, no symlink followed at all.
  int walk_open(const std::string& rel, int flags, mode_t mode) const {
    if (rel.empty()) return ::openat(root_fd, ".", flags | O_CLOEXEC);
    int dir = ::dup(root_fd);
    if (dir < 0) return -1;
    size_t start = 0;
    for (;;) {
      const size_t slash = rel.find('/', start);
      const std::string part = rel.substr(start, slash == std::string::npos ? std::string::npos : slash - start);
      const bool last = slash == std::string::npos;
      const int fd = last ? ::openat(dir, part.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode)
                          : ::openat(dir, part.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
      const int saved = errno;
      ::close(dir);
      if (fd < 0) {
        errno = saved;
        return -1;
      }
      if (last) return fd;
      dir = fd;
      start = slash + 1;
    }
  }
};

FileJail::FileJail(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
FileJail::~FileJail() = default;

std::unique_ptr<FileJail> FileJail::open(const std::string& root, std::string& error) {
  if (root.empty() || root.front() != '/') {
    error = "'" + root + "' is not an absolute path";
    return nullptr;
  }
  auto impl = std::make_unique<Impl>();
  impl->root = root;
  impl->root_fd = ::open(root.c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (impl->root_fd < 0) {
    error = "cannot open the folder " + root + ": " + std::strerror(errno);
    return nullptr;
  }
  // Does this kernel have openat2? Ask once with a harmless lookup.
  struct open_how how {};
  how.flags = O_PATH | O_CLOEXEC;
  how.resolve = RESOLVE_BENEATH;
  const long fd = ::syscall(SYS_openat2, impl->root_fd, ".", &how, sizeof how);
  if (fd >= 0) ::close(int(fd));
  else if (errno == ENOSYS) impl->have_openat2 = false;
  return std::unique_ptr<FileJail>(new FileJail(std::move(impl)));
}

const std::string& FileJail::root() const { return impl_->root; }

JailStatus FileJail::check_names(const std::string& rel) {
  // Every byte but '/' and NUL makes a Linux name.
  if (!plain_relative(rel)) return refused(JailError::kNotAllowed, "the path is not a plain relative path");
  return {};
}

JailStatus FileJail::stat(const std::string& rel, FileInfo& info) const {
  if (!plain_relative(rel)) return refused(JailError::kNotAllowed, "the path is not a plain relative path");
  const int fd = impl_->open_beneath(rel, O_PATH);
  if (fd < 0) return failure(errno, "cannot look at '" + rel + "'");
  struct stat st {};
  const int r = ::fstat(fd, &st);
  const int saved = errno;
  ::close(fd);
  if (r != 0) return failure(saved, "cannot look at '" + rel + "'");
  info = describe(st);
  return {};
}

JailStatus FileJail::open_read(const std::string& rel, OwnedFile& file, FileInfo& info) const {
  if (!plain_relative(rel)) return refused(JailError::kNotAllowed, "the path is not a plain relative path");
  // O_NONBLOCK: a FIFO must not hang the opener; it is refused below anyway.
  const int fd = impl_->open_beneath(rel, O_RDONLY | O_NOCTTY | O_NONBLOCK);
  if (fd < 0) return failure(errno, "cannot open '" + rel + "'");
  OwnedFile owned(fd);
  struct stat st {};
  if (::fstat(fd, &st) != 0) return failure(errno, "cannot look at '" + rel + "'");
  if (S_ISDIR(st.st_mode)) return refused(JailError::kIsADirectory, "'" + rel + "' is a folder");
  if (!S_ISREG(st.st_mode)) return refused(JailError::kNotAllowed, "'" + rel + "' is not a regular file");
  const int fl = ::fcntl(fd, F_GETFL);
  if (fl >= 0) ::fcntl(fd, F_SETFL, fl & ~O_NONBLOCK);
  info = describe(st);
  file = std::move(owned);
  return {};
}

JailStatus FileJail::list(const std::string& rel, size_t max_entries, std::vector<DirEntry>& out,
                          bool& truncated) const {
  truncated = false;
  out.clear();
  if (!plain_relative(rel)) return refused(JailError::kNotAllowed, "the path is not a plain relative path");
  const int fd = impl_->open_beneath(rel, O_RDONLY | O_DIRECTORY);
  if (fd < 0) return failure(errno, "cannot open the folder '" + rel + "'");
  DIR* dir = ::fdopendir(fd);
  if (dir == nullptr) {
    const int saved = errno;
    ::close(fd);
    return failure(saved, "cannot read the folder '" + rel + "'");
  }
  const std::string prefix = rel.empty() ? "" : rel + "/";
  JailStatus status;
  for (;;) {
    errno = 0;
    const dirent* e = ::readdir(dir);
    if (e == nullptr) {
      if (errno != 0) status = failure(errno, "cannot read the folder '" + rel + "'");
      break;
    }
    const std::string name = e->d_name;
    if (name == "." || name == "..") continue;
    if (out.size() == max_entries) {
      truncated = true;
      break;
    }
    DirEntry entry;
    entry.name = name;
    struct stat st {};
    if (::fstatat(fd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0) continue;  // gone meanwhile
    if (S_ISLNK(st.st_mode)) {
      // Described by its target, found the way every other lookup is.
      const std::string target = prefix + name;
      const int t = prefix.size() + name.size() < kMaxJailPath ? impl_->open_beneath(target, O_PATH) : -1;
      struct stat tst {};
      if (t >= 0 && ::fstat(t, &tst) == 0) entry.info = describe(tst);
      else entry.info = describe(st), entry.info.kind = FileInfo::Kind::kOther, entry.info.size = 0;
      if (t >= 0) ::close(t);
    } else {
      entry.info = describe(st);
    }
    out.push_back(std::move(entry));
  }
  ::closedir(dir);  // closes fd
  return status;
}

JailStatus FileJail::make_dirs(const std::string& rel) const {
  if (!plain_relative(rel)) return refused(JailError::kNotAllowed, "the path is not a plain relative path");
  if (rel.empty()) return {};
  size_t end = 0;
  for (;;) {
    end = rel.find('/', end + 1);
    const std::string upto = rel.substr(0, end);
    const auto [parent, name] = split_last(upto);
    const int pfd = impl_->open_beneath(parent, O_PATH | O_DIRECTORY);
    if (pfd < 0) return failure(errno, "cannot open the folder '" + parent + "'");
    const int r = ::mkdirat(pfd, name.c_str(), 0777);
    const int saved = errno;
    ::close(pfd);
    if (r != 0 && saved != EEXIST) return failure(saved, "cannot make the folder '" + upto + "'");
    if (r != 0) {
      // Taken: fine only by a folder (a symlink to one beneath the root too).
      FileInfo info;
      if (JailStatus s = stat(upto, info); !s) return s;
      if (info.kind != FileInfo::Kind::kDirectory)
        return refused(JailError::kNotADirectory, "'" + upto + "' exists and is not a folder");
    }
    if (end == std::string::npos) return {};
  }
}

JailStatus FileJail::create_new(const std::string& rel, OwnedFile& file) const {
  if (!plain_relative(rel) || rel.empty())
    return refused(JailError::kNotAllowed, "the path is not a plain relative path");
  const int fd = impl_->open_beneath(rel, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY, 0666);
  if (fd < 0) return failure(errno, "cannot create '" + rel + "'");
  file = OwnedFile(fd);
  return {};
}

JailStatus FileJail::rename_new(const std::string& from, const std::string& to) const {
  if (!plain_relative(from) || !plain_relative(to) || from.empty() || to.empty())
    return refused(JailError::kNotAllowed, "the path is not a plain relative path");
  const auto [from_dir, from_name] = split_last(from);
  const auto [to_dir, to_name] = split_last(to);
  const int fd_from = impl_->open_beneath(from_dir, O_PATH | O_DIRECTORY);
  if (fd_from < 0) return failure(errno, "cannot open the folder '" + from_dir + "'");
  const int fd_to = impl_->open_beneath(to_dir, O_PATH | O_DIRECTORY);
  if (fd_to < 0) {
    const int saved = errno;
    ::close(fd_from);
    return failure(saved, "cannot open the folder '" + to_dir + "'");
  }
  long r = ::syscall(SYS_renameat2, fd_from, from_name.c_str(), fd_to, to_name.c_str(), RENAME_NOREPLACE);
  int saved = errno;
  if (r != 0 && (saved == EINVAL || saved == ENOSYS)) {
    // No RENAME_NOREPLACE here: a hard link cannot replace either.
    r = ::linkat(fd_from, from_name.c_str(), fd_to, to_name.c_str(), 0);
    saved = errno;
    if (r == 0) ::unlinkat(fd_from, from_name.c_str(), 0);
  }
  ::close(fd_from);
  ::close(fd_to);
  if (r != 0) return failure(saved, "cannot rename '" + from + "' to '" + to + "'");
  return {};
}

JailStatus FileJail::remove(const std::string& rel) const {
  if (!plain_relative(rel) || rel.empty())
    return refused(JailError::kNotAllowed, "the path is not a plain relative path");
  const auto [dir, name] = split_last(rel);
  const int fd = impl_->open_beneath(dir, O_PATH | O_DIRECTORY);
  if (fd < 0) return failure(errno, "cannot open the folder '" + dir + "'");
  const int r = ::unlinkat(fd, name.c_str(), 0);
  const int saved = errno;
  ::close(fd);
  if (r != 0) return failure(saved, "cannot remove '" + rel + "'");
  return {};
}

std::optional<uint64_t> FileJail::free_bytes() const {
  struct statvfs s {};
  if (::fstatvfs(impl_->root_fd, &s) != 0) return std::nullopt;
  return uint64_t(s.f_bavail) * uint64_t(s.f_frsize);
}

JailStatus FileJail::sync(const OwnedFile& file) {
  if (::fdatasync(file.get()) != 0) return failure(errno, "cannot flush the file to the disk");
  return {};
}

}  // namespace voxl::platform
