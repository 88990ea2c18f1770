// The system's journal as a destination for the audit trail
// (--audit-journal): one entry per line, with the line as its MESSAGE and
// fields of its own beside it, so `journalctl -t voxl-audit` finds them
// and the journal's own sealing (journalctl --setup-keys) can guard them.
//
// POSIX: systemd's journal through libsystemd (sd_journal_sendv, a
// datagram to /run/systemd/journal/socket). Windows: none; journal_problem
// says so.
//
// Threads: any; blocking system calls (the journal's socket may be full).
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace voxl::platform {

// Empty when entries can be sent to the journal; else why not.
std::string journal_problem();

// One entry: MESSAGE=`message` and each of `fields` (NAME=value; NAME in
// upper case letters, digits and '_', not starting with '_'). False with
// `error` set when the journal did not take it.
bool send_to_journal(std::string_view message, const std::vector<std::pair<std::string, std::string>>& fields,
                     std::string& error);

}  // namespace voxl::platform
