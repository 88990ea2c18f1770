#include "endpoints/computer_endpoints.h"

#include <algorithm>
#include <string>
#include <utility>

#include "base/base64.h"
#include "base/json_text.h"
#include "net/query.h"

namespace voxl::endpoints {

using net::CancelFn;
using net::EndpointReply;
using net::EndpointRequest;
using net::ReplyFn;

namespace {

CancelFn computer(ComputerUse& c, const EndpointRequest& req, ReplyFn reply) {
  auto q = endpoint_query(req, {"scale", "max_width", "max_height", "screenshot", "cursor", "react", "settle", "settle_timeout"},
                         reply);
  if (!q) return nullptr;
  ComputerOptions options;
  options.settle_cap = std::min(options.settle_cap, c.services().max_wait);
  net::ParamError error;
  if (!parse_computer_options(*q, c.services().max_wait, options, error)) return reply(bad_parameter(error)), nullptr;
  options.view_only = req.view_only;
  options.user = req.user;
  return c.run(req.body, options, [reply](ComputerOutcome o) { reply(computer_reply(std::move(o))); });
}

CancelFn cursor(ComputerUse& c, const EndpointRequest& req, ReplyFn reply) {
  auto q = endpoint_query(req, {"scale", "max_width", "max_height"}, reply);
  if (!q) return nullptr;
  ScaleSpec scale;
  net::ParamError error;
  if (!parse_scale(*q, scale, error)) return reply(bad_parameter(error)), nullptr;
  std::string why;
  auto where = c.cursor(scale, why);
  if (!where) return reply(net::json_error(503, "", why)), nullptr;
  EndpointReply r;
  r.body = json_text(*where) + "\n";
  reply(std::move(r));
  return nullptr;
}

}  // namespace

EndpointReply computer_reply(ComputerOutcome o) {
  if (o.status != 200) return net::json_error(o.status, o.parameter, o.error);
  EndpointReply r;
  nlohmann::json info = std::move(o.info);
  if (!o.png.empty())
    info["screenshot"] = {{"media_type", "image/png"},
                          {"width", o.png_size.width},
                          {"height", o.png_size.height},
                          {"data", base64_encode(o.png)}};
  if (info.contains("seq")) r.headers = {{kSeqHeader, std::to_string(info["seq"].get<uint64_t>())}};
  r.body = json_text(info) + "\n";
  return r;
}

net::EndpointTable computer_endpoints(ComputerUse& computer) {
  net::EndpointTable t;
  // A typed sentence or a long drag path is small; 64 KiB is plenty.
  t["/computer"] = {{"POST"}, [&computer](EndpointRequest& req, ReplyFn reply) {
                      return endpoints::computer(computer, req, std::move(reply));
                    }};
  t["/cursor"] = {{"GET"}, [&computer](EndpointRequest& req, ReplyFn reply) {
                    return endpoints::cursor(computer, req, std::move(reply));
                  }};
  return t;
}

}  // namespace voxl::endpoints
