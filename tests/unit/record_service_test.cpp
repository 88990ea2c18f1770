// RecordService on a real io_context and hub, with no video pipeline: the
// test publishes access units itself. The disk work of a recording
// (writing, finishing, free-space looks) happens off the loop thread, and
// every request gets its reply.
#include "endpoints/record_service.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>

#include <fcntl.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <future>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "platform/owned_file.h"
#include "stream/fanout/hub.h"

namespace voxl::endpoints {
namespace VOXL_TEST_FILE {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

constexpr Size kSize{320, 240};

Logger null_logger() {
  return std::make_shared<spdlog::logger>("record-test", std::make_shared<spdlog::sinks::null_sink_mt>());
}

// Bytes this thread has handed to write(2) and its kin so far (Linux's
// per-thread I/O accounting).
uint64_t thread_wchar() {
  std::ifstream io("/proc/thread-self/io");
  std::string key;
  uint64_t value = 0;
  while (io >> key >> value)
    if (key == "wchar:") return value;
  ADD_FAILURE() << "no wchar in /proc/thread-self/io";
  return 0;
}

// An access unit the muxer takes: Annex B with SPS and PPS in front of a
// key frame; `payload` bytes of slice data that hold no start code.
encode::EncodedFramePtr access_unit(uint32_t id, bool key, Clock::time_point at, size_t payload = 20000) {
  auto f = std::make_shared<encode::EncodedFrame>();
  f->id = id;
  f->key = key;
  f->size = kSize;
  f->captured = kSize;
  f->captured_at = at;
  auto nal = [&f, id](std::initializer_list<uint8_t> head, size_t n) {
    for (uint8_t b : {0, 0, 0, 1}) f->data.push_back(b);
    f->data.insert(f->data.end(), head);
    for (size_t i = 0; i < n; ++i) f->data.push_back(uint8_t(0x80 | ((i * 31 + id) & 0x7f)));
  };
  if (key) {
    nal({0x67, 0x42, 0xc0, 0x1e}, 8);  // SPS, Constrained Baseline 3.0
    nal({0x68, 0xce}, 2);              // PPS
    nal({0x65}, payload);              // IDR slice
  } else {
    nal({0x41}, payload);  // non-IDR slice
  }
  return f;
}

constexpr uint64_t kMiB = 1 << 20;

// A disk whose making of files waits until the test opens a gate (to fill
// the disk thread's queue), whose free space the test says, and which
// notes the threads it was called on.
struct TestDisk {
  std::promise<void> entered;  // a make_file call is waiting at the gate
  std::promise<void> gate;
  std::shared_future<void> gate_open = gate.get_future().share();
  bool gated = false;
  std::atomic<int> free_calls{0};
  int low_from_call = 0;  // free_bytes says "low" from this call on (1-based); 0: never
  bool full_file = false;  // files that refuse every write (/dev/full)
  std::mutex mutex;
  std::vector<std::thread::id> threads;

  RecordDiskOptions options(size_t max_jobs = 4096) {
    RecordDiskOptions o;
    o.max_jobs = max_jobs;
    o.ops.free_bytes = [this](const std::string&) -> std::optional<uint64_t> {
      note();
      const int n = ++free_calls;
      return low_from_call > 0 && n >= low_from_call ? 10 * kMiB : 100000 * kMiB;
    };
    o.ops.make_file = [this](const std::string& dir, std::string& error) {
      note();
      if (gated) {
        gated = false;
        entered.set_value();
        gate_open.wait();
      }
      if (full_file) return platform::OwnedFile(::open("/dev/full", O_RDWR | O_CLOEXEC));
      return platform::make_anonymous_file(dir, error);
    };
    return o;
  }
  void note() {
    std::lock_guard lock(mutex);
    threads.push_back(std::this_thread::get_id());
  }
  bool only_off(std::thread::id loop) {
    std::lock_guard lock(mutex);
    return !threads.empty() && std::find(threads.begin(), threads.end(), loop) == threads.end();
  }
};

// Opens the gate when it goes, so a failing test never leaves the disk
// thread waiting (the service joins it).
struct GateOpener {
  TestDisk& disk;
  bool opened = false;
  void open() {
    if (!opened) disk.gate.set_value();
    opened = true;
  }
  ~GateOpener() { open(); }
};

class RecordServiceTest : public ::testing::Test {
 protected:
  // Runs the loop (this thread) until `done` or the limit.
  template <class Pred>
  bool run_until(Pred done, Clock::duration limit = 10s) {
    const auto end = Clock::now() + limit;
    while (!done() && Clock::now() < end) {
      io_.restart();
      io_.run_one_for(20ms);
    }
    return done();
  }

  // Publishes `n` frames 50 ms apart from `t0` (a key frame first), with
  // the loop run between them.
  void publish(uint32_t first_id, int n, Clock::time_point t0, bool key_first = true) {
    for (int i = 0; i < n; ++i) {
      hub_.publish(access_unit(first_id + uint32_t(i), key_first && i == 0, t0 + i * 50ms));
      io_.restart();
      io_.poll();
    }
  }

  boost::asio::io_context io_;
  stream::Hub hub_{stream::PipelineControls{}};
};

// Answers collected by `done` callbacks.
struct Answers {
  std::vector<RecordOutcome> got;
  RecordService::Done done() {
    return [this](RecordOutcome o) { got.push_back(std::move(o)); };
  }
};

// A slow disk must never stall the loop that sends the picture: the loop
// thread hands the frames on and writes none of the MP4 itself, and the
// reply still holds every frame of the recording.
TEST_F(RecordServiceTest, TheLoopThreadWritesNoneOfTheRecording) {
  RecordService svc(io_, hub_, 60s, ::testing::TempDir(), null_logger());
  std::optional<RecordOutcome> out;
  RecordRefusal why;
  const uint64_t wrote_before = thread_wchar();
  const uint64_t id = svc.record_for(500ms, [&out](RecordOutcome o) { out = std::move(o); }, why);
  ASSERT_NE(id, 0u) << why.error;
  const auto t0 = Clock::now();
  // 50 ms apart: frames 0..9 fall in the 500 ms, frame 10 ends it.
  for (uint32_t i = 0; i < 12; ++i) {
    hub_.publish(access_unit(i + 1, i == 0, t0 + i * 50ms));
    io_.poll();
  }
  ASSERT_TRUE(run_until([&out] { return out.has_value(); }));
  const uint64_t wrote = thread_wchar() - wrote_before;
  ASSERT_EQ(out->status, 200) << out->error;
  EXPECT_EQ(out->frames, 10u) << "nothing is lost on the way to the disk";
  EXPECT_EQ(out->ended, "length");
  ASSERT_TRUE(out->file);
  // The MP4 is complete: ftyp first, at least the frames' bytes.
  uint8_t head[8];
  size_t got = 0;
  std::string error;
  ASSERT_TRUE(platform::read_at(out->file->get(), head, sizeof head, 0, got, error)) << error;
  ASSERT_EQ(got, sizeof head);
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(head + 4), 4), "ftyp");
  EXPECT_LT(wrote, 1024u) << "the loop thread wrote " << wrote << " bytes itself (about 200 KB of frames were recorded)";
}

// The disk thread's queue is bounded: a recording whose frame finds it full
// fails with a clear 503 (its frames cannot be dropped: the MP4 would not
// decode), a start finding it full is refused with 503, and every request
// gets exactly one answer. Once the disk catches up, recordings work again.
TEST_F(RecordServiceTest, AFullDiskQueueAnswers503AndNothingIsLeftUnanswered) {
  TestDisk disk;
  disk.gated = true;
  auto entered = disk.entered.get_future();
  RecordService svc(io_, hub_, 60s, ::testing::TempDir(), null_logger(), {}, disk.options(1));
  GateOpener opener{disk};  // after the service: opened before it joins its disk thread
  Answers a, b, c;
  RecordRefusal why;
  const uint64_t first = svc.record_for(5s, a.done(), why);
  ASSERT_NE(first, 0u) << why.error;
  ASSERT_EQ(entered.wait_for(10s), std::future_status::ready) << "the disk thread makes the file";
  // The disk thread waits in make_file: the queue holds what comes next.
  const uint64_t second = svc.record_for(5s, b.done(), why);
  ASSERT_NE(second, 0u) << why.error;  // its file is the one job the queue holds
  EXPECT_EQ(svc.record_for(5s, c.done(), why), 0u);
  EXPECT_EQ(why.status, 503);
  EXPECT_NE(why.error.find("disk"), std::string::npos) << why.error;

  publish(1, 3, Clock::now());
  ASSERT_TRUE(run_until([&] { return a.got.size() == 1 && b.got.size() == 1; }));
  for (const Answers* x : {&a, &b}) {
    EXPECT_EQ(x->got[0].status, 503);
    EXPECT_NE(x->got[0].error.find("cannot keep up"), std::string::npos) << x->got[0].error;
  }
  EXPECT_TRUE(c.got.empty()) << "a refused start is answered by its refusal, not by done";

  opener.open();
  // Once the disk has caught up, a recording works again. (Free-space
  // looks: the service's first, then one as each file is made; a job is
  // out of the queue once its look runs.)
  ASSERT_TRUE(run_until([&] { return disk.free_calls == 3 && svc.recordings() == 0; }));
  std::optional<RecordOutcome> out;
  ASSERT_NE(svc.record_for(1ms, [&out](RecordOutcome o) { out = std::move(o); }, why), 0u) << why.error;
  ASSERT_TRUE(run_until([&] { return disk.free_calls == 4; }));
  publish(100, 2, Clock::now());  // one frame, and one past its length
  ASSERT_TRUE(run_until([&out] { return out.has_value(); }));
  EXPECT_EQ(out->status, 200) << out->error;
  EXPECT_EQ(out->frames, 1u);
  EXPECT_EQ(a.got.size(), 1u) << "answered once";
  EXPECT_EQ(b.got.size(), 1u) << "answered once";
}

// The free space is looked at on the disk thread only; when it is low
// there before the file is made, the recording's answer says so (507), and
// the next start is refused at once from that look.
TEST_F(RecordServiceTest, LowDiskBeforeTheFileIsMadeAnswers507ThenRefusesAtOnce) {
  TestDisk disk;
  disk.low_from_call = 1;
  RecordLimits limits;
  limits.min_free_bytes = 256 * kMiB;
  RecordService svc(io_, hub_, 60s, ::testing::TempDir(), null_logger(), limits, disk.options());
  Answers a;
  RecordRefusal why;
  // Before the loop has heard of the disk thread's first look.
  ASSERT_NE(svc.record_for(1s, a.done(), why), 0u) << why.error;
  ASSERT_TRUE(run_until([&a] { return !a.got.empty(); }));
  EXPECT_EQ(a.got[0].status, 507);
  EXPECT_NE(a.got[0].error.find("10 MB free"), std::string::npos) << a.got[0].error;
  EXPECT_EQ(svc.record_for(1s, a.done(), why), 0u);
  EXPECT_EQ(why.status, 507);
  EXPECT_NE(why.error.find("recordings need 256 MB"), std::string::npos) << why.error;
  EXPECT_EQ(svc.last_free(), 10 * kMiB);
  EXPECT_TRUE(disk.only_off(std::this_thread::get_id())) << "the loop thread looked at the disk";
}

// While it records: every free_check_every bytes the disk thread looks
// before writing the next frame, and a low disk ends the recording there,
// with the frames before it kept.
TEST_F(RecordServiceTest, LowDiskWhileRecordingEndsItWithWhatWasWritten) {
  TestDisk disk;
  disk.low_from_call = 3;  // 1: the service's first look, 2: the file's, 3: after 50 KB
  RecordLimits limits;
  limits.min_free_bytes = 256 * kMiB;
  limits.free_check_every = 50 * 1024;  // frames are 20 KB: a look before the third
  RecordService svc(io_, hub_, 60s, ::testing::TempDir(), null_logger(), limits, disk.options());
  std::optional<RecordOutcome> out;
  RecordRefusal why;
  ASSERT_TRUE(run_until([&svc] { return svc.last_free().has_value(); }));
  ASSERT_NE(svc.record_for(5s, [&out](RecordOutcome o) { out = std::move(o); }, why), 0u) << why.error;
  publish(1, 10, Clock::now());
  ASSERT_TRUE(run_until([&out] { return out.has_value(); }));
  ASSERT_EQ(out->status, 200) << out->error;
  EXPECT_EQ(out->ended, "low-disk-space");
  EXPECT_EQ(out->frames, 2u) << "the frames before the look are kept, none after";
  EXPECT_NEAR(out->seconds, 0.1, 0.001);
  EXPECT_EQ(disk.free_calls.load(), 3);
  EXPECT_TRUE(disk.only_off(std::this_thread::get_id())) << "the loop thread looked at the disk";
}

// A write the system refuses (here: a file on /dev/full) fails the
// recording with 500 and the system's reason, through its answer.
TEST_F(RecordServiceTest, AFailedWriteAnswers500WithTheReason) {
  TestDisk disk;
  disk.full_file = true;
  RecordService svc(io_, hub_, 60s, ::testing::TempDir(), null_logger(), {}, disk.options());
  std::optional<RecordOutcome> out;
  RecordRefusal why;
  ASSERT_NE(svc.record_for(5s, [&out](RecordOutcome o) { out = std::move(o); }, why), 0u) << why.error;
  publish(1, 5, Clock::now());
  ASSERT_TRUE(run_until([&out] { return out.has_value(); }));
  EXPECT_EQ(out->status, 500);
  EXPECT_NE(out->error.find("cannot write the recording"), std::string::npos) << out->error;
  EXPECT_FALSE(out->file);
  EXPECT_EQ(svc.recordings(), 0u);
}

// /record/start and /record/stop: stop's answer comes once the index is
// written; asking again meanwhile is refused, not answered twice.
TEST_F(RecordServiceTest, StopAnswersOnceTheIndexIsWritten) {
  RecordService svc(io_, hub_, 60s, ::testing::TempDir(), null_logger());
  RecordRefusal why;
  const uint64_t id = svc.start(why);
  ASSERT_NE(id, 0u) << why.error;
  publish(1, 4, Clock::now());
  Answers a, b;
  ASSERT_TRUE(svc.stop(id, a.done()));
  EXPECT_FALSE(svc.stop(id, b.done())) << "someone waits for its answer already";
  ASSERT_TRUE(run_until([&a] { return !a.got.empty(); }));
  EXPECT_EQ(a.got[0].status, 200) << a.got[0].error;
  EXPECT_EQ(a.got[0].ended, "stop");
  EXPECT_EQ(a.got[0].frames, 4u);
  EXPECT_TRUE(b.got.empty());
  EXPECT_FALSE(svc.stop(id, b.done())) << "handed over: gone";
  EXPECT_EQ(svc.recordings(), 0u);
  EXPECT_EQ(svc.budget().used(), 0u) << "its bytes are given back once it is handed over";
}

// A stop that comes before the first picture (an idle desktop, a loaded
// machine) ends the recording with that picture: start and stop at once
// give an MP4 of one frame, not an error.
TEST_F(RecordServiceTest, StopBeforeTheFirstPictureEndsWithIt) {
  RecordService svc(io_, hub_, 60s, ::testing::TempDir(), null_logger());
  RecordRefusal why;
  const uint64_t id = svc.start(why);
  ASSERT_NE(id, 0u) << why.error;
  Answers a;
  ASSERT_TRUE(svc.stop(id, a.done()));
  io_.restart();
  io_.poll();
  EXPECT_TRUE(a.got.empty()) << "no picture yet: it waits for one";
  publish(1, 3, Clock::now());
  ASSERT_TRUE(run_until([&a] { return !a.got.empty(); }));
  EXPECT_EQ(a.got[0].status, 200) << a.got[0].error;
  EXPECT_EQ(a.got[0].ended, "stop");
  EXPECT_EQ(a.got[0].frames, 1u) << "the picture it waited for, and none after it";
  ASSERT_TRUE(a.got[0].file);
  EXPECT_EQ(svc.recordings(), 0u);
}

// A client that leaves while its frames wait for the disk: nothing is
// answered, nothing is touched after the recording is gone.
TEST_F(RecordServiceTest, CancelWhileTheDiskIsBehindIsSafe) {
  TestDisk disk;
  disk.gated = true;
  auto entered = disk.entered.get_future();
  RecordService svc(io_, hub_, 60s, ::testing::TempDir(), null_logger(), {}, disk.options());
  GateOpener opener{disk};
  Answers a;
  RecordRefusal why;
  const uint64_t id = svc.record_for(100ms, a.done(), why);
  ASSERT_NE(id, 0u) << why.error;
  ASSERT_EQ(entered.wait_for(10s), std::future_status::ready);
  publish(1, 4, Clock::now());  // ends it: its index waits behind the file
  svc.cancel(id);
  opener.open();
  run_until([] { return false; }, 300ms);
  EXPECT_TRUE(a.got.empty());
  EXPECT_EQ(svc.recordings(), 0u);
}

// /record?last=: the held frames go to the disk thread as one job and the
// answer comes once they and the index are written, with the loop writing
// nothing.
TEST_F(RecordServiceTest, TheLastSecondsAreWrittenOffTheLoop) {
  RecordService svc(io_, hub_, 60s, ::testing::TempDir(), null_logger());
  svc.keep_last(10s, 64 * kMiB);
  ASSERT_TRUE(run_until([this] { return hub_.sinks() == 1; }));
  const auto now = Clock::now();
  publish(1, 10, now - 600ms);
  ASSERT_EQ(svc.buffered_frames(), 10u);
  std::optional<RecordOutcome> out;
  RecordRefusal why;
  const uint64_t wrote_before = thread_wchar();
  ASSERT_NE(svc.record_last(1s, 0ms, [&out](RecordOutcome o) { out = std::move(o); }, why), 0u) << why.error;
  EXPECT_FALSE(out) << "answered once the disk thread has written it";
  ASSERT_TRUE(run_until([&out] { return out.has_value(); }));
  EXPECT_LT(thread_wchar() - wrote_before, 1024u);
  ASSERT_EQ(out->status, 200) << out->error;
  EXPECT_EQ(out->frames, 10u);
  EXPECT_EQ(out->ended, "length");
  EXPECT_GE(out->before_ms, 600);
}

}  // namespace
}  // namespace voxl::endpoints
