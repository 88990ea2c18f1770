#include "net/sign_ins.h"

#include <sodium.h>

#include <stdexcept>
#include <utility>

#include "net/password_hash.h"

namespace voxl::net {
namespace {

// Checked in place of a user who does not exist, so that a wrong name
// costs what a wrong password does.
std::string stand_in_hash() {
  static const std::string hash = hash_password("a password no one has");
  return hash;
}

}  // namespace

SignIns::SignIns(std::shared_ptr<const Users> users, Post post)
    : users_(users ? std::move(users) : std::make_shared<const Users>()),
      post_(std::move(post)),
      key_(crypto_generichash_KEYBYTES, '\0'),
      checker_(kMaxWaiting, [this](Job& job) { serve(job); }) {
  if (sodium_init() < 0) throw std::runtime_error("libsodium could not be set up");
  randombytes_buf(key_.data(), key_.size());
}

SignIns::~SignIns() { *alive_ = false; }

std::string SignIns::digest(std::string_view name, std::string_view password) const {
  std::string out(crypto_generichash_BYTES, '\0');
  crypto_generichash_state state;
  crypto_generichash_init(&state, reinterpret_cast<const unsigned char*>(key_.data()), key_.size(), out.size());
  const uint64_t length = name.size();
  crypto_generichash_update(&state, reinterpret_cast<const unsigned char*>(&length), sizeof length);
  crypto_generichash_update(&state, reinterpret_cast<const unsigned char*>(name.data()), name.size());
  crypto_generichash_update(&state, reinterpret_cast<const unsigned char*>(password.data()), password.size());
  crypto_generichash_final(&state, reinterpret_cast<unsigned char*>(out.data()), out.size());
  return out;
}

SignIns::Answer SignIns::lookup(std::string_view name, std::string_view password, Clock::time_point now) const {
  const auto it = kept_.find(digest(name, password));
  if (it == kept_.end() || it->second.until < now) return Answer{};
  return it->second.answer;
}

SignIns::Answer SignIns::named(std::string_view name) const {
  const UserEntry* user = users_->find(name);
  if (!user) return Answer{Verdict::kRefused, {}, {}};
  return Answer{Verdict::kGranted, user->name, user->rights};
}

void SignIns::keep(const std::string& key, Answer answer, Clock::time_point now) {
  const auto until = answer.verdict == Verdict::kRefused ? now + kRefusalMemory : Clock::time_point::max();
  if (const auto it = kept_.find(key); it != kept_.end()) {
    it->second = Kept{std::move(answer), until};
    return;
  }
  while (kept_.size() >= kMaxRemembered && !order_.empty()) {
    kept_.erase(order_.front());
    order_.pop_front();
  }
  kept_.emplace(key, Kept{std::move(answer), until});
  order_.push_back(key);
}

bool SignIns::check(std::string_view name, std::string_view password, std::string_view address,
                    std::function<void()> done) {
  Job job;
  job.name = std::string(name.substr(0, 64));
  job.address = std::string(address);
  job.digest = digest(name, password);
  job.password = std::string(password);
  job.generation = generation_;
  job.done = std::move(done);
  if (const UserEntry* user = users_->find(name); user && !user->hash.empty()) {
    job.hash = user->hash;
    job.granted = Answer{Verdict::kGranted, user->name, user->rights};
  }
  return checker_.submit(std::move(job));
}

void SignIns::serve(Job& job) {
  bool matches = false;
  try {
    matches = password_matches(job.hash.empty() ? stand_in_hash() : job.hash, job.password) && !job.hash.empty();
  } catch (const std::exception&) {
    matches = false;  // the stand-in could not be made: a refusal
  }
  sodium_memzero(job.password.data(), job.password.size());
  Answer answer = matches ? std::move(job.granted) : Answer{Verdict::kRefused, {}, {}};
  post_([this, alive = alive_, digest = std::move(job.digest), answer = std::move(answer),
         generation = job.generation, done = std::move(job.done), name = std::move(job.name),
         address = std::move(job.address)]() mutable {
    if (!*alive) return;
    if (checked_) checked_(answer, name, address);
    if (generation == generation_) keep(digest, std::move(answer), Clock::now());
    if (done) done();
  });
}

void SignIns::set_users(std::shared_ptr<const Users> users) {
  users_ = users ? std::move(users) : std::make_shared<const Users>();
  ++generation_;
  kept_.clear();
  order_.clear();
}

}  // namespace voxl::net
