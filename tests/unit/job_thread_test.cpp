// JobThread: jobs served one at a time in order on a thread of their own,
// and the queue's bound refusing more.
#include "base/job_thread.h"

#include <gtest/gtest.h>

#include <condition_variable>
#include <mutex>
#include <thread>
#include <vector>

namespace voxl {
namespace VOXL_TEST_FILE {

// The serve function waits at a gate the test opens.
struct Gate {
  std::mutex mu;
  std::condition_variable cv;
  bool open = false;
  int entered = 0;
  std::vector<int> served;
  std::thread::id thread;

  void serve(int& job) {
    std::unique_lock lock(mu);
    ++entered;
    thread = std::this_thread::get_id();
    cv.notify_all();
    cv.wait(lock, [this] { return open; });
    served.push_back(job);
    cv.notify_all();
  }
  void wait_entered(int n) {
    std::unique_lock lock(mu);
    cv.wait(lock, [&] { return entered >= n; });
  }
  void let_through() {
    std::lock_guard lock(mu);
    open = true;
    cv.notify_all();
  }
};

TEST(JobThread, ServesInOrderOnItsThreadAndRefusesPastItsBound) {
  Gate gate;
  {
    JobThread<int> jobs(2, [&gate](int& j) { gate.serve(j); });
    ASSERT_TRUE(jobs.submit(1));
    gate.wait_entered(1);  // 1 is being served: the queue is empty
    EXPECT_TRUE(jobs.submit(2));
    EXPECT_TRUE(jobs.submit(3));
    EXPECT_FALSE(jobs.submit(4)) << "past the bound";
    gate.let_through();
    std::unique_lock lock(gate.mu);
    gate.cv.wait(lock, [&] { return gate.served.size() == 3; });
  }
  EXPECT_EQ(gate.served, (std::vector<int>{1, 2, 3}));
  EXPECT_NE(gate.thread, std::this_thread::get_id());
}

}  // namespace VOXL_TEST_FILE
}  // namespace voxl
