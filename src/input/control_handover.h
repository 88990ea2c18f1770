// Who holds the desktop's keyboard and mouse among the stream's viewers:
// one full viewer at a time (agents' /input is not subject to it). The
// rule:
// - with nobody holding, the first full viewer to use input (or ask for
//   control) takes it at once, so a lone viewer never notices handover;
// - another full viewer's request marks it requesting; the holder may
//   grant control to a requester or deny it; releasing hands control to
//   the oldest requester, or frees it;
// - when the holder used no input for the timeout (0: never) while someone
//   requests, control goes to the oldest requester;
// - when the holder leaves, the oldest requester gets it, else it is free;
// - view-only viewers neither request nor hold control.
//
// Pure logic on the caller's clock: every call that may move control
// takes the time, and deadline() says when on_timer() is next due. Ids are
// the stream's viewer ids (never 0; 0 means nobody). Threads: one owner
// (the Interaction, loop thread); not thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

namespace voxl::input {

class ControlHandover {
 public:
  using Time = std::chrono::steady_clock::time_point;

  // `timeout`: the holder's idle time after which a requester gets
  // control; zero: never.
  explicit ControlHandover(std::chrono::seconds timeout) : timeout_(timeout) {}

  // What a control action came to.
  enum class Outcome {
    kDone,      // applied (or nothing to do: already so)
    kRefused,   // not allowed for this viewer (view-only, or not the holder)
    kUnknown,   // no such viewer (the target of a grant or deny)
  };

  void join(uint64_t id, bool view_only);
  void leave(uint64_t id, Time now);

  // A full viewer used input: true when it holds control (taking it when
  // free); false for a view-only viewer or while another holds it.
  bool on_input(uint64_t id, Time now);
  Outcome request(uint64_t id, Time now);
  // The holder lets go (to the oldest requester); a requester withdraws.
  Outcome release(uint64_t id, Time now);
  // The holder gives control to a requester, or turns its request down.
  Outcome grant(uint64_t holder, uint64_t to, Time now);
  Outcome deny(uint64_t holder, uint64_t to);

  // When on_timer() should next run (the holder's idle deadline while
  // someone requests); nullopt: no timer needed.
  std::optional<Time> deadline() const;
  // The timer fired: passes control on if the holder has idled past the
  // timeout (else nothing; deadline() tells the next one).
  void on_timer(Time now);

  uint64_t holder() const { return holder_; }
  bool requesting(uint64_t id) const;
  std::chrono::seconds timeout() const { return timeout_; }
  // Counts changes of the holder or of anyone's request (for telling the
  // viewers only when something moved).
  uint64_t changes() const { return changes_; }

 private:
  struct Viewer {
    uint64_t id = 0;
    bool view_only = false;
    uint64_t requested = 0;  // order of its pending request; 0: none
  };
  Viewer* find(uint64_t id);
  const Viewer* oldest_requester() const;
  void give(uint64_t id, Time now);  // 0: nobody
  void pass_on(Time now);            // to the oldest requester, else free

  std::chrono::seconds timeout_;
  std::vector<Viewer> viewers_;  // in join order
  uint64_t holder_ = 0;
  Time holder_input_at_{};  // the holder's last input (or when it got control)
  uint64_t request_serial_ = 0;
  uint64_t changes_ = 0;
};

}  // namespace voxl::input
