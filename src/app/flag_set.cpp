#include "app/flag_set.h"

#include "app/flag_values.h"

namespace voxl::app {

namespace {

std::string help_line(const std::string& help, const std::string& default_text) {
  return default_text.empty() ? help : help + " (default: " + default_text + ")";
}

}  // namespace

std::optional<std::string> last_value(const CLI::App& cli, const std::string& name) {
  const CLI::Option* option = cli.get_option_no_throw(name);
  if (option == nullptr || option->count() == 0 || option->results().empty()) return std::nullopt;
  return option->results().back();
}

CLI::Option* FlagSet::value(const std::string& name, const std::string& value_name,
                            const std::string& help, const std::string& default_text,
                            std::string accepts, Apply apply) {
  CLI::Option* option = cli_.add_option(name, CLI::callback_t{}, help_line(help, default_text));
  option->group(group_)->type_name(value_name);
  declared_.push_back({name, std::move(accepts), std::move(apply)});
  return option;
}

CLI::Option* FlagSet::optional_value(const std::string& name, const std::string& value_name,
                                     const std::string& help, const std::string& default_text,
                                     std::string accepts, Apply apply) {
  return value(name, "[" + value_name + "]", help, default_text, std::move(accepts), std::move(apply))
      ->expected(0, 1);
}

void FlagSet::integer(const std::string& name, const std::string& value_name, const std::string& help,
                      int lo, int hi, int& field) {
  const std::string range = std::to_string(lo) + "-" + std::to_string(hi);
  value(name, value_name, help + ", " + range, std::to_string(field),
        "a whole number from " + std::to_string(lo) + " to " + std::to_string(hi),
        [&field, lo, hi](const std::string& text) {
          const auto v = parse_int(text, lo, hi);
          if (v) field = static_cast<int>(*v);
          return v.has_value();
        });
}

void FlagSet::boolean(const std::string& name, const std::string& help, bool& field) {
  optional_value(name, "BOOL", help, field ? "true" : "false",
                 "true or false (also 1/0, yes/no, on/off; the flag alone means true)",
                 [&field](const std::string& text) {
                   const auto v = parse_bool(text);
                   if (v) field = *v;
                   return v.has_value();
                 });
}

void FlagSet::text(const std::string& name, const std::string& value_name, const std::string& help,
                   std::string& field) {
  value(name, value_name, help, field, "a non-empty value", [&field](const std::string& text) {
    if (text.empty()) return false;
    field = text;
    return true;
  });
}

std::vector<std::string> FlagSet::names() const {
  std::vector<std::string> out;
  out.reserve(declared_.size());
  for (const Declared& flag : declared_) out.push_back(flag.name);
  return out;
}

void FlagSet::apply_last(const std::string& name) {
  for (Declared& flag : declared_)
    if (flag.name == name) flag.last = true;
}

std::optional<std::string> FlagSet::apply() const {
  for (const bool last : {false, true}) {
    for (const Declared& flag : declared_) {
      if (flag.last != last) continue;
      const auto text = last_value(cli_, flag.name);
      if (!text || flag.apply(*text)) continue;
      return flag.name + ": '" + *text + "' is not accepted; expected " + flag.accepts;
    }
  }
  return std::nullopt;
}

}  // namespace voxl::app
