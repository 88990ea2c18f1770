// Declares flags on a CLI11 parser and, once it has parsed, converts the
// values given into settings. CLI11 only collects the text: every value is
// checked here so each refusal reads the same way, names the flag and says
// what it accepts. Used once on the main thread while parsing.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <CLI/CLI.hpp>

namespace voxl::app {

class FlagSet {
 public:
  // Stores the converted value; false refuses the text.
  using Apply = std::function<bool(const std::string& text)>;

  explicit FlagSet(CLI::App& cli) : cli_(cli) {}

  // Flags declared from now on are listed under `name` in --help.
  void group(std::string name) { group_ = std::move(name); }

  // A flag taking one value. The help line ends with "(default: ...)" unless
  // `default_text` is empty. `accepts` completes "expected ..." in a refusal.
  CLI::Option* value(const std::string& name, const std::string& value_name, const std::string& help,
                     const std::string& default_text, std::string accepts, Apply apply);

  // Like value(), but the flag may stand alone; it then carries "".
  CLI::Option* optional_value(const std::string& name, const std::string& value_name,
                              const std::string& help, const std::string& default_text,
                              std::string accepts, Apply apply);

  // Shorthands; the help gains the range and the current value as default.
  void integer(const std::string& name, const std::string& value_name, const std::string& help, int lo,
               int hi, int& field);
  void boolean(const std::string& name, const std::string& help, bool& field);
  // Any text but "": an empty path, name or password is a mistake.
  void text(const std::string& name, const std::string& value_name, const std::string& help,
            std::string& field);

  // Converts the flags that were given, in declaration order, then those
  // marked apply_last(); when a flag is repeated its last value counts.
  // Returns the first refusal.
  std::optional<std::string> apply() const;

  // Converts the declared flag `name` after every other flag, so that its
  // value wins over what another flag set on the way (a floor over the
  // floor of a range), wherever --help lists the two.
  void apply_last(const std::string& name);

  // Every declared flag's name ("--dash-spelling"), in declaration order.
  std::vector<std::string> names() const;

 private:
  struct Declared {
    std::string name;
    std::string accepts;
    Apply apply;
    bool last = false;
  };

  CLI::App& cli_;
  std::string group_;
  std::vector<Declared> declared_;
};

// The last value given for `name`, or nullopt when it was not given.
std::optional<std::string> last_value(const CLI::App& cli, const std::string& name);

}  // namespace voxl::app
