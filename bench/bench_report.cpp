#include "bench_report.h"

#include <cmath>
#include <cstdio>

#include "bench_options.h"

namespace voxl::bench {

namespace {

std::string format(const char* fmt, double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, fmt, v);
  return buf;
}

// Sub-millisecond grabs (damaged areas) need a digit more to be readable.
std::string ms_text(double ms) { return format(ms < 1.0 ? "%.4f" : "%.3f", ms); }

std::string rate_text(double mpix) { return format(mpix < 100.0 ? "%.1f" : "%.0f", mpix); }

const char* grab_name(GrabKind g) {
  switch (g) {
    case GrabKind::kFull: return "full";
    case GrabKind::kDamaged: return "damaged-64x64";
    case GrabKind::kMemcpy: return "memcpy";
  }
  return "unknown";
}

std::string table_row(const ResultRow& r, const std::string& last_column) {
  const Timing& t = r.timing;
  return "| " + to_string(r.capture) + " | " + r.label + " | " + ms_text(t.mean_ms) + " | " +
         ms_text(t.p50_ms) + " | " + ms_text(t.p95_ms) + " | " + ms_text(t.p99_ms) + " | " +
         rate_text(mpix_per_s(r)) + " | " + last_column + " |\n";
}

std::string table_head(const std::string& last_column) {
  return "| Size | Source | Mean ms | p50 ms | p95 ms | p99 ms | Mpix/s | " + last_column +
         " |\n|------|--------|--------:|-------:|-------:|-------:|-------:|------:|\n";
}

std::string full_table(const BenchReport& report) {
  std::string out = table_head("Speed-up vs GetImage");
  for (const ResultRow& r : report.rows) {
    if (r.grab == GrabKind::kDamaged) continue;
    out += table_row(r, r.speedup ? format("%.2fx", *r.speedup) : "-");
  }
  return out;
}

std::string damaged_table(const BenchReport& report) {
  std::string out = table_head("Time vs full grab");
  for (const ResultRow& r : report.rows) {
    if (r.grab != GrabKind::kDamaged) continue;
    out += table_row(r, r.of_full ? format("%.3gx", *r.of_full) : "-");
  }
  return out;
}

std::string json_string(const std::string& s) {
  std::string out = "\"";
  for (const char ch : s) {
    const auto u = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\') {
      out += '\\';
      out += ch;
    } else if (u < 0x20) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\u%04x", unsigned(u));
      out += buf;
    } else {
      out += ch;
    }
  }
  return out + "\"";
}

// JSON has no NaN or infinity; neither can come out of a finished run, but
// a number that is not finite must not produce invalid output.
std::string json_number(double v) { return std::isfinite(v) ? format("%.6g", v) : "null"; }

std::string json_optional(const std::optional<double>& v) {
  return v ? json_number(*v) : "null";
}

std::string json_strings(const std::vector<std::string>& items) {
  std::string out = "[";
  for (size_t i = 0; i < items.size(); ++i) out += (i ? ", " : "") + json_string(items[i]);
  return out + "]";
}

std::string json_row(const ResultRow& r) {
  const Timing& t = r.timing;
  return "    {\"size\": " + json_string(to_string(r.capture)) +
         ", \"width\": " + std::to_string(r.capture.width) +
         ", \"height\": " + std::to_string(r.capture.height) +
         ", \"grab\": " + json_string(grab_name(r.grab)) +
         ", \"source\": " + json_string(r.source) + ", \"label\": " + json_string(r.label) +
         ", \"pixels\": " + std::to_string(r.pixels) + ", \"mean_ms\": " + json_number(t.mean_ms) +
         ", \"p50_ms\": " + json_number(t.p50_ms) + ", \"p95_ms\": " + json_number(t.p95_ms) +
         ", \"p99_ms\": " + json_number(t.p99_ms) +
         ", \"mpix_per_s\": " + json_number(mpix_per_s(r)) +
         ", \"speedup_vs_get_image\": " + json_optional(r.speedup) +
         ", \"ratio_to_full\": " + json_optional(r.of_full) + "}";
}

}  // namespace

double mpix_per_s(const ResultRow& row) {
  if (row.timing.mean_ms <= 0) return 0;
  return double(row.pixels) / (row.timing.mean_ms / 1000.0) / 1e6;
}

std::string to_markdown(const BenchReport& report) {
  std::string out = "## X11 capture benchmark\n\n";
  out += "- Display " + report.display + ": " + report.server + ", screen " +
         to_string(report.screen) + "; capture regions at its top-left corner\n";
  out += "- Every row: " + std::to_string(report.warmup) + " warm-up + " +
         std::to_string(report.iterations) +
         " timed grabs into a one-buffer frame pool (X grab + copy into the frame)\n";
  for (const std::string& s : report.sources) out += "- " + s + "\n";
  for (const std::string& n : report.notes) out += "- " + n + "\n";
  out += "\n### Full grabs\n\n" + full_table(report);
  out += "\n### 64x64 damaged grabs\n\n" + damaged_table(report);
  return out;
}

std::string to_json(const BenchReport& report) {
  std::string out = "{\n";
  out += "  \"display\": " + json_string(report.display) + ",\n";
  out += "  \"server\": " + json_string(report.server) + ",\n";
  out += "  \"screen\": {\"width\": " + std::to_string(report.screen.width) +
         ", \"height\": " + std::to_string(report.screen.height) + "},\n";
  out += "  \"warmup\": " + std::to_string(report.warmup) + ",\n";
  out += "  \"iterations\": " + std::to_string(report.iterations) + ",\n";
  out += "  \"sources\": " + json_strings(report.sources) + ",\n";
  out += "  \"notes\": " + json_strings(report.notes) + ",\n";
  out += "  \"results\": [\n";
  for (size_t i = 0; i < report.rows.size(); ++i)
    out += json_row(report.rows[i]) + (i + 1 < report.rows.size() ? ",\n" : "\n");
  return out + "  ]\n}\n";
}

}  // namespace voxl::bench
