#include "platform/pulse/microphone_fifo.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace voxl::platform::pulse {
namespace VOXL_TEST_FILE {

namespace fs = std::filesystem;

class MicrophoneFifoTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string t = (fs::temp_directory_path() / "voxl-fifo-XXXXXX").string();
    ASSERT_NE(mkdtemp(t.data()), nullptr);
    dir_ = t;
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string path(const char* name) const { return dir_ + "/" + name; }

  // Everything in the pipe now, without waiting.
  static std::vector<int16_t> drain(const std::string& p) {
    const int fd = open(p.c_str(), O_RDONLY | O_NONBLOCK);
    EXPECT_GE(fd, 0);
    std::vector<int16_t> out(1 << 16);
    const ssize_t n = read(fd, out.data(), out.size() * 2);
    close(fd);
    out.resize(n > 0 ? size_t(n) / 2 : 0);
    return out;
  }

  std::string dir_;
};

TEST_F(MicrophoneFifoTest, CreatesTheFifoAndRemovesIt) {
  const std::string p = path("mic.fifo");
  {
    MicrophoneFifo fifo(p);
    struct stat st{};
    ASSERT_EQ(stat(p.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode));
    EXPECT_EQ(st.st_mode & 0777, 0600u);
  }
  EXPECT_FALSE(fs::exists(p));
}

TEST_F(MicrophoneFifoTest, KeepsAnExistingFifo) {
  const std::string p = path("mine.fifo");
  ASSERT_EQ(mkfifo(p.c_str(), 0644), 0);
  { MicrophoneFifo fifo(p); }
  EXPECT_TRUE(fs::exists(p)) << "a FIFO voxl did not make is not voxl's to remove";
}

TEST_F(MicrophoneFifoTest, RefusesAPathThatIsNotAFifo) {
  const std::string p = path("file");
  std::ofstream(p) << "x";
  EXPECT_THROW(MicrophoneFifo{p}, std::runtime_error);
  EXPECT_THROW(MicrophoneFifo{path("no/such/dir/fifo")}, std::runtime_error);
}

TEST_F(MicrophoneFifoTest, RefusesASymbolicLinkEvenToAFifo) {
  const std::string target = path("real.fifo");
  ASSERT_EQ(mkfifo(target.c_str(), 0600), 0);
  const std::string link = path("link.fifo");
  ASSERT_EQ(symlink(target.c_str(), link.c_str()), 0);
  try {
    MicrophoneFifo fifo(link);
    ADD_FAILURE() << "a symbolic link was followed";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("symbolic link"), std::string::npos) << e.what();
  }
  // A dangling link is not followed to create a FIFO elsewhere either.
  const std::string dangling = path("dangling.fifo");
  ASSERT_EQ(symlink(path("elsewhere").c_str(), dangling.c_str()), 0);
  EXPECT_THROW(MicrophoneFifo{dangling}, std::runtime_error);
  EXPECT_FALSE(fs::exists(path("elsewhere")));
}

TEST_F(MicrophoneFifoTest, RefusesARegularFileWithAClearMessage) {
  const std::string p = path("regular");
  std::ofstream(p) << "x";
  try {
    MicrophoneFifo fifo(p);
    ADD_FAILURE() << "a regular file was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("not a FIFO"), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::exists(p)) << "the file is left alone";
}

TEST_F(MicrophoneFifoTest, RefusesAFifoOthersCanWriteOutsideAPrivateDirectory) {
  ASSERT_EQ(chmod(dir_.c_str(), 0755), 0);  // like /tmp: others can reach the path
  const std::string p = path("open.fifo");
  ASSERT_EQ(mkfifo(p.c_str(), 0600), 0);
  ASSERT_EQ(chmod(p.c_str(), 0622), 0);
  try {
    MicrophoneFifo fifo(p);
    ADD_FAILURE() << "a FIFO writable by others was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("0622"), std::string::npos) << e.what();
  }
  ASSERT_EQ(chmod(p.c_str(), 0644), 0);
  EXPECT_NO_THROW(MicrophoneFifo{p}) << "read-only for others is fine";
}

TEST_F(MicrophoneFifoTest, TightensAFifoOthersCanWriteInAPrivateDirectory) {
  // PulseAudio makes its FIFO 0666 less the umask (0664 under umask 002);
  // in a 0700 directory nobody else can have opened it.
  const std::string p = path("pulse.fifo");
  ASSERT_EQ(mkfifo(p.c_str(), 0600), 0);
  ASSERT_EQ(chmod(p.c_str(), 0666), 0);
  MicrophoneFifo fifo(p);
  struct stat st{};
  ASSERT_EQ(stat(p.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 022, 0u);
}

TEST_F(MicrophoneFifoTest, RefusesAnotherUsersFifo) {
  if (geteuid() != 0) GTEST_SKIP() << "needs root to give a FIFO to another user";
  const std::string p = path("theirs.fifo");
  ASSERT_EQ(mkfifo(p.c_str(), 0600), 0);
  ASSERT_EQ(chown(p.c_str(), 65534, 65534), 0);
  try {
    MicrophoneFifo fifo(p);
    ADD_FAILURE() << "another user's FIFO was accepted";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("owned by uid 65534"), std::string::npos) << e.what();
  }
}

// Sets XDG_RUNTIME_DIR for one test and puts the old value back.
class ScopedRuntimeDir {
 public:
  explicit ScopedRuntimeDir(const char* value) {
    if (const char* old = std::getenv("XDG_RUNTIME_DIR")) old_ = old;
    if (value) setenv("XDG_RUNTIME_DIR", value, 1);
    else unsetenv("XDG_RUNTIME_DIR");
  }
  ~ScopedRuntimeDir() {
    if (old_) setenv("XDG_RUNTIME_DIR", old_->c_str(), 1);
    else unsetenv("XDG_RUNTIME_DIR");
  }

 private:
  std::optional<std::string> old_;
};

TEST_F(MicrophoneFifoTest, DefaultsToTheRuntimeDirectory) {
  ScopedRuntimeDir env(dir_.c_str());
  EXPECT_EQ(default_microphone_fifo(), dir_ + "/voxl-mic.fifo");
}

TEST_F(MicrophoneFifoTest, DefaultFallsBackToAPrivatePerUserDirectory) {
  const std::string fallback = "/tmp/voxl-" + std::to_string(geteuid());
  for (const char* value : {static_cast<const char*>(nullptr), "relative/dir", "/no/such/dir"}) {
    ScopedRuntimeDir env(value);
    EXPECT_EQ(default_microphone_fifo(), fallback + "/voxl-mic.fifo") << (value ? value : "unset");
  }
  ASSERT_EQ(chmod(dir_.c_str(), 0755), 0);
  ScopedRuntimeDir env(dir_.c_str());  // others can get in: not usable
  EXPECT_EQ(default_microphone_fifo(), fallback + "/voxl-mic.fifo");
  struct stat st{};
  ASSERT_EQ(lstat(fallback.c_str(), &st), 0);
  EXPECT_TRUE(S_ISDIR(st.st_mode));
  EXPECT_EQ(st.st_mode & 07777, 0700u);
  EXPECT_EQ(st.st_uid, geteuid());
}

TEST_F(MicrophoneFifoTest, AFullPipeDropsTheOldestAndNeverBlocks) {
  const std::string p = path("mic.fifo");
  MicrophoneFifo fifo(p);
  // Ten times what the pipe holds, numbered so the survivors can be told apart.
  const size_t total = 10 * MicrophoneFifo::kPipeBytes / 2;
  std::vector<int16_t> chunk(480);
  int16_t n = 0;
  for (size_t written = 0; written < total; written += chunk.size()) {
    for (auto& v : chunk) v = n++;
    ASSERT_TRUE(fifo.write(chunk));
  }
  EXPECT_GT(fifo.dropped_bytes(), 0u);
  const auto left = drain(p);
  ASSERT_FALSE(left.empty());
  EXPECT_LE(left.size() * 2, size_t(MicrophoneFifo::kPipeBytes));
  // What is left is the newest audio, in order and sample-aligned.
  EXPECT_EQ(left.back(), int16_t(n - 1));
  for (size_t i = 1; i < left.size(); ++i) ASSERT_EQ(int16_t(left[i - 1] + 1), left[i]) << i;
}

}  // namespace
}  // namespace voxl::platform::pulse
