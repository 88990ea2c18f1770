// COM initialised on the calling thread for as long as the object lives
// (CoInitializeEx, multithreaded apartment). A thread already in another
// apartment keeps it (RPC_E_CHANGED_MODE): COM is usable there anyway, and
// nothing is undone at the end.
//
// Threads: construct and destroy on the same thread.
#pragma once

#include <objbase.h>

namespace voxl::platform::windows {

class ComApartment {
 public:
  ComApartment() : hr_(CoInitializeEx(nullptr, COINIT_MULTITHREADED)) {}
  ~ComApartment() {
    if (SUCCEEDED(hr_)) CoUninitialize();
  }
  ComApartment(const ComApartment&) = delete;
  ComApartment& operator=(const ComApartment&) = delete;

  // COM can be used on this thread.
  bool usable() const { return SUCCEEDED(hr_) || hr_ == RPC_E_CHANGED_MODE; }
  HRESULT result() const { return hr_; }

 private:
  HRESULT hr_;
};

}  // namespace voxl::platform::windows
