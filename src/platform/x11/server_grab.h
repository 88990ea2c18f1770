// Holds the X server for the time of a read that bypasses it (the Xvfb
// framebuffer source): while grabbed, the server runs no other client's
// requests, so the pixels read are those between two whole requests, as
// with GetImage, never a drawing caught halfway through one.
//
// The constructor sends GrabServer and waits for a round trip, so the grab
// is in force when it returns: the server has finished the batch of
// requests it was running (typically a whole frame of the application) and
// will run nothing else until the destructor's UngrabServer. Keep the scope
// to the copy: every client of the display waits meanwhile.
//
// Threads: the thread that owns the connection. Borrows the connection.
#pragma once

#include <xcb/xcb.h>

namespace voxl::platform::x11 {

class ServerGrab {
 public:
  explicit ServerGrab(xcb_connection_t* c);
  ~ServerGrab();
  ServerGrab(const ServerGrab&) = delete;
  ServerGrab& operator=(const ServerGrab&) = delete;

 private:
  xcb_connection_t* c_;
};

}  // namespace voxl::platform::x11
