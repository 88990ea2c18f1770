// A piece of disk work with its answer: `work` runs on a DiskWorker and
// `done` receives its result on the loop thread. The answer always comes
// (unless the owner is gone): when `work` throws, `done` gets a result whose
// status is an I/O error naming the exception, so a request waiting on the
// disk is always replied to and the state it marked busy is released.
//
// Threads: call from the loop thread (the one running `io`); `work` runs on
// the worker's thread, `done` on the loop thread. `owner` is held weakly:
// when it has gone by the time the result arrives, `done` is not called.
#pragma once

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <exception>
#include <memory>
#include <string>
#include <utility>

#include "files/disk_worker.h"
#include "platform/file_jail.h"

namespace voxl::files {

// Result: default-constructible with a `platform::JailStatus status`.
// Done: void(Owner&, Result). False when the worker's queue is full: then
// nothing runs and the caller answers "busy" itself.
template <class Result, class Owner, class Work, class Done>
[[nodiscard]] bool run_disk_job(DiskWorker& worker, boost::asio::io_context& io, std::weak_ptr<Owner> owner,
                                Work work, Done done) {
  return worker.submit([owner, work = std::move(work), done = std::move(done), &io]() mutable {
    auto result = std::make_shared<Result>();
    try {
      *result = work();
    } catch (const std::exception& e) {
      *result = Result{};
      result->status = {platform::JailError::kIo, std::string("internal error: ") + e.what()};
    } catch (...) {
      *result = Result{};
      result->status = {platform::JailError::kIo, "internal error"};
    }
    boost::asio::post(io, [owner, result, done = std::move(done)]() mutable {
      if (auto self = owner.lock()) done(*self, std::move(*result));
    });
  });
}

}  // namespace voxl::files
