// FilesService driven through its endpoint table with a real jail over a
// temporary folder and a disk worker the test holds: the paths a busy or
// failing disk takes, reached without sockets.
#include "files/files_service.h"

#include <gtest/gtest.h>
#include <spdlog/sinks/null_sink.h>

#include <boost/asio/executor_work_guard.hpp>

#include <chrono>
#include <filesystem>
#include <future>
#include <optional>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "files/disk_job.h"

namespace voxl::files {
namespace VOXL_TEST_FILE {

namespace asio = boost::asio;
namespace fs = std::filesystem;
using json = nlohmann::json;
using namespace std::chrono_literals;

Logger null_logger() {
  return std::make_shared<spdlog::logger>("files-service-test", std::make_shared<spdlog::sinks::null_sink_mt>());
}

// A job on the worker that holds its thread until released.
class WorkerHold {
 public:
  explicit WorkerHold(DiskWorker& worker) {
    auto released = released_.get_future().share();
    EXPECT_TRUE(worker.submit([this, released] {
      started_.set_value();
      released.wait();
    }));
    started_.get_future().wait();
  }
  ~WorkerHold() { release(); }
  void release() {
    if (!done_) released_.set_value();
    done_ = true;
  }

 private:
  std::promise<void> started_;
  std::promise<void> released_;
  bool done_ = false;
};

class FilesServiceTest : public ::testing::Test {
 protected:
  FilesServiceTest() {
    char pattern[] = "/tmp/voxl-files-service-XXXXXX";
    root_ = ::mkdtemp(pattern);
    std::string error;
    auto jail = platform::FileJail::open(root_.string(), error);
    EXPECT_TRUE(jail) << error;
    FilesOptions o;
    o.reserve_bytes = 0;
    o.make_id = [this] { return std::string(31, '0') + char('a' + ids_++); };
    auto worker = std::make_unique<DiskWorker>(kQueue);
    worker_ = worker.get();
    service_.emplace(io_, std::move(jail), std::move(o), null_logger(), std::move(worker));
    table_ = service_->endpoints();
  }
  ~FilesServiceTest() override {
    service_.reset();
    fs::remove_all(root_);
  }

  // Sends one request; the reply lands in the returned slot once the loop
  // has run far enough.
  std::shared_ptr<std::optional<net::EndpointReply>> send(const std::string& method, const std::string& path,
                                                          const std::string& query, std::string body = {}) {
    auto slot = std::make_shared<std::optional<net::EndpointReply>>();
    net::EndpointRequest req;
    req.method = method;
    req.path = path;
    req.query = query;
    req.body = std::move(body);
    (void)table_.at(path).handle(req, [slot](net::EndpointReply r) { *slot = std::move(r); });
    return slot;
  }

  // Runs loop handlers until `done` holds (the worker posts them).
  template <class Pred>
  bool run_until(Pred done, std::chrono::seconds deadline = 20s) {
    const auto end = std::chrono::steady_clock::now() + deadline;
    while (!done()) {
      if (std::chrono::steady_clock::now() > end) return false;
      io_.run_one_for(100ms);
    }
    return true;
  }

  net::EndpointReply await(const std::shared_ptr<std::optional<net::EndpointReply>>& slot) {
    EXPECT_TRUE(run_until([&] { return slot->has_value(); })) << "no reply";
    return slot->value_or(net::EndpointReply{});
  }

  // Waits until every job the worker has now has run (jobs run in order).
  void drain_worker() {
    std::promise<void> ran;
    ASSERT_TRUE(worker_->submit([&ran] { ran.set_value(); }));
    ran.get_future().wait();
  }

  // Announces `size` bytes for `name` and returns the upload's id.
  std::string announce(const std::string& name, uint64_t size) {
    const auto r = await(send("POST", "/files/upload", "", json{{"path", name}, {"size", size}}.dump()));
    EXPECT_EQ(r.status, 201) << r.body;
    return json::parse(r.body, nullptr, false).value("id", "");
  }

  size_t partial_files() const {
    size_t n = 0;
    if (!fs::exists(root_ / "Downloads")) return 0;
    for (const auto& e : fs::directory_iterator(root_ / "Downloads"))
      if (e.path().filename().string().ends_with(".part")) ++n;
    return n;
  }

  static constexpr size_t kQueue = 4;
  asio::io_context io_;
  asio::executor_work_guard<asio::io_context::executor_type> guard_ = asio::make_work_guard(io_);
  fs::path root_;
  int ids_ = 0;
  DiskWorker* worker_ = nullptr;  // owned by the service
  std::optional<FilesService> service_;
  net::EndpointTable table_;
};

struct Outcome {
  platform::JailStatus status;
  int value = 0;
};

// The bug: a job that threw was swallowed by the worker and its answer
// never came, so the request waiting on it got no reply.
TEST(DiskJob, AJobThatThrowsStillAnswers) {
  asio::io_context io;
  auto guard = asio::make_work_guard(io);
  DiskWorker worker(4);
  auto owner = std::make_shared<int>(0);
  std::optional<Outcome> got;
  ASSERT_TRUE(run_disk_job<Outcome>(
      worker, io, std::weak_ptr<int>(owner), []() -> Outcome { throw std::runtime_error("disk on fire"); },
      [&got](int&, Outcome o) { got = std::move(o); }));
  const auto end = std::chrono::steady_clock::now() + 20s;
  while (!got && std::chrono::steady_clock::now() < end) io.run_one_for(100ms);
  ASSERT_TRUE(got) << "the job's answer never came";
  EXPECT_EQ(got->status.error, platform::JailError::kIo);
  EXPECT_NE(got->status.message.find("disk on fire"), std::string::npos) << got->status.message;
}

TEST(DiskJob, NoAnswerOnceTheOwnerHasGone) {
  asio::io_context io;
  DiskWorker worker(4);
  auto owner = std::make_shared<int>(0);
  bool called = false;
  std::promise<void> ran;
  ASSERT_TRUE(run_disk_job<Outcome>(
      worker, io, std::weak_ptr<int>(owner), [&ran] { ran.set_value(); return Outcome{{}, 7}; },
      [&called](int&, Outcome) { called = true; }));
  ran.get_future().wait();
  owner.reset();
  io.run_for(200ms);
  EXPECT_FALSE(called);
}

// The bug: DELETE during the last chunk's completion answered 204 while the
// completion still renamed the file into place. Here the cancel comes
// before the rename has run: the upload is withdrawn and nothing is placed.
TEST_F(FilesServiceTest, CancelBeforeTheRenameWithdrawsTheUpload) {
  const std::string id = announce("report.txt", 5);
  auto put = send("PUT", "/files/upload", "id=" + id + "&offset=0", "hello");
  drain_worker();  // the chunk is written; its answer waits on the loop
  WorkerHold hold_rename(*worker_);
  io_.poll();  // the write's answer starts the completion, queued behind the hold
  ASSERT_FALSE(put->has_value());
  auto del = send("DELETE", "/files/upload", "id=" + id);
  hold_rename.release();
  const auto d = await(del);
  const auto p = await(put);
  drain_worker();
  EXPECT_EQ(d.status, 204) << d.body;
  EXPECT_EQ(p.status, 404) << p.body;
  EXPECT_FALSE(fs::exists(root_ / "Downloads/report.txt")) << "a cancelled upload was put in place";
  EXPECT_EQ(partial_files(), 0u);
}

// The rename ran before the cancel arrived: the cancel is refused and says
// where the file went, and the upload's own reply says it is done.
TEST_F(FilesServiceTest, CancelAfterTheRenameSaysTheFileIsSaved) {
  const std::string id = announce("notes.txt", 3);
  auto put = send("PUT", "/files/upload", "id=" + id + "&offset=0", "abc");
  // The write runs, its answer is posted; the answer starts the rename.
  drain_worker();
  io_.poll();
  drain_worker();  // the rename has run; its answer waits on the loop
  auto del = send("DELETE", "/files/upload", "id=" + id);
  const auto d = await(del);
  const auto p = await(put);
  EXPECT_EQ(p.status, 200) << p.body;
  EXPECT_EQ(d.status, 409) << d.body;
  EXPECT_NE(d.body.find("notes.txt"), std::string::npos) << d.body;
  EXPECT_TRUE(fs::exists(root_ / "Downloads/notes.txt"));
}

// The bug: when the worker's queue was full, the partial file of a
// cancelled upload stayed until the next start.
TEST_F(FilesServiceTest, ACancelWithAFullQueueStillRemovesThePartialFile) {
  const std::string id = announce("big.bin", 100);
  ASSERT_EQ(partial_files(), 1u);
  std::promise<void> fillers_ran;
  {
    WorkerHold hold(*worker_);
    for (size_t i = 0; i + 1 < kQueue; ++i) ASSERT_TRUE(worker_->submit([] {}));
    ASSERT_TRUE(worker_->submit([&fillers_ran] { fillers_ran.set_value(); }));
    ASSERT_FALSE(worker_->submit([] {}));  // full
    const auto d = await(send("DELETE", "/files/upload", "id=" + id));
    EXPECT_EQ(d.status, 204) << d.body;
  }
  fillers_ran.get_future().wait();
  EXPECT_TRUE(run_until([&] {
    drain_worker();
    return partial_files() == 0;
  })) << "the partial file was left behind";
}

}  // namespace
}  // namespace voxl::files
