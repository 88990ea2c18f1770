// Where voxl's parts report what people did, for the audit trail
// (audit/audit_log.h, --audit-log): an event's name ("connect") and its
// fields as a JSON object, never a password, a token, the clipboard's
// content or typed text. An empty sink records nothing.
//
// Threads: callable from any thread; the trail only queues (it never
// blocks the caller).
#pragma once

#include <functional>
#include <string>

#include <nlohmann/json_fwd.hpp>

namespace voxl {

using AuditSink = std::function<void(std::string event, nlohmann::json fields)>;

}  // namespace voxl
