// A users file's verdict on a name and password, as the access policy
// reads it: not checked yet, granted (with who and what they may do), or
// refused. Pure data; any thread.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include "net/rights.h"

namespace voxl::net {

struct SignInAnswer {
  enum class Verdict { kUnknown, kGranted, kRefused };
  Verdict verdict = Verdict::kUnknown;
  std::string name;
  Rights rights;
};

// What is known of a name and password now, without checking them (a check
// costs tens of milliseconds: SignIns has it made off the loop).
using SignInLookup = std::function<SignInAnswer(std::string_view name, std::string_view password)>;
// The user of that name, signed in elsewhere (a trusted proxy named them):
// granted with their rights, or refused when the file has no such user.
using NamedUserLookup = std::function<SignInAnswer(std::string_view name)>;

}  // namespace voxl::net
