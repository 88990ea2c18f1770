// Paths as the user's system spells them: the user's home folder (the Files
// panel's default root) and what counts as an absolute path in a flag.
//
// POSIX: the home folder is $HOME when it is absolute; an absolute path
// starts with '/'. Windows: the home folder is the user's profile folder
// (%USERPROFILE%, read as UTF-16); an absolute path is a drive's
// ("C:\..." or "C:/...") or a share's ("\\server\share\..."). Paths are
// UTF-8 on both.
//
// Threads: any; home_folder() reads the environment at each call.
#pragma once

#include <string>
#include <string_view>

namespace voxl::platform {

// The home folder of the user voxl runs as; empty when the system names
// none or names one that is not absolute (never "/" or a drive by default).
std::string home_folder();

bool is_absolute_path(std::string_view path);

}  // namespace voxl::platform
