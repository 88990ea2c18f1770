#include "audio/microphone_fifo.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace voxl::audio {
namespace {

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
}  // namespace voxl::audio
