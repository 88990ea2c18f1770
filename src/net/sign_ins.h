// Sign-ins against the users file (--users-file), checked off the network
// loop. An Argon2id check costs tens of milliseconds and 64 MiB, so the
// loop only looks up verdicts already reached (lookup()) and has a name
// and password it has not seen checked on a thread of its own (check()),
// the verdict coming back to the loop. Verdicts are kept under a keyed
// digest of the name and password (BLAKE2b, with a key made at start;
// never the password), at most kMaxRemembered of them, a refusal for
// kRefusalMemory only; all are forgotten when the users change.
//
// Threads: every member on the loop's thread; the checks on the object's
// own thread. Ownership: it holds the users; `post` must outlive it.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>

#include "base/job_thread.h"
#include "net/rights.h"
#include "net/sign_in_answer.h"
#include "net/users_file.h"

namespace voxl::net {

class SignIns {
 public:
  using Clock = std::chrono::steady_clock;
  // Runs a function on the loop's thread (asio::post on its io_context).
  using Post = std::function<void(std::function<void()>)>;
  static constexpr size_t kMaxRemembered = 1024;
  static constexpr size_t kMaxWaiting = 64;
  static constexpr std::chrono::seconds kRefusalMemory{5};

  using Answer = SignInAnswer;
  using Verdict = SignInAnswer::Verdict;

  SignIns(std::shared_ptr<const Users> users, Post post);
  ~SignIns();
  SignIns(const SignIns&) = delete;
  SignIns& operator=(const SignIns&) = delete;

  Answer lookup(std::string_view name, std::string_view password, Clock::time_point now) const;
  // The user `name`, as a trusted proxy named them (no password): granted
  // with their rights, or refused when there is no such user.
  Answer named(std::string_view name) const;
  // Checks them and calls `done` on the loop with the verdict kept for
  // lookup(). False when kMaxWaiting checks wait already (nothing is kept).
  bool check(std::string_view name, std::string_view password, std::string_view address, std::function<void()> done);
  // Told each verdict reached (on the loop), for the audit trail.
  using Checked = std::function<void(const Answer& answer, const std::string& name, const std::string& address)>;
  void on_checked(Checked checked) { checked_ = std::move(checked); }
  // New users: every verdict is forgotten; checks under way are dropped.
  void set_users(std::shared_ptr<const Users> users);
  const Users& users() const { return *users_; }

 private:
  struct Job {
    std::string digest;
    std::string hash;  // empty: no such user (a check of the same cost runs)
    std::string password;
    std::string name;
    std::string address;
    Answer granted;
    uint64_t generation = 0;
    std::function<void()> done;
  };
  struct Kept {
    Answer answer;
    Clock::time_point until;
  };
  std::string digest(std::string_view name, std::string_view password) const;
  void keep(const std::string& digest, Answer answer, Clock::time_point now);
  void serve(Job& job);

  std::shared_ptr<const Users> users_;
  Post post_;
  std::string key_;
  uint64_t generation_ = 0;
  Checked checked_;
  std::unordered_map<std::string, Kept> kept_;
  std::deque<std::string> order_;  // oldest first, for eviction
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
  JobThread<Job> checker_;  // last: joined first
};

}  // namespace voxl::net
