#include "endpoints/a11y_endpoints.h"

#include <boost/asio/post.hpp>

#include <chrono>
#include <memory>
#include <stdexcept>
#include <utility>

#include "base/json_text.h"
#include "endpoints/a11y_request.h"
#include "endpoints/a11y_view.h"
#include "endpoints/computer_endpoints.h"

namespace voxl::endpoints {
namespace {

namespace asio = boost::asio;
using json = nlohmann::json;
using net::CancelFn;
using net::EndpointReply;
using net::EndpointRequest;
using net::ReplyFn;
using Clock = std::chrono::steady_clock;

// How long an action on an element may take the application.
constexpr std::chrono::seconds kActTimeout{5};

}  // namespace

struct A11yContext {
  A11yService& a11y;
  ComputerUse& computer;
  const AgentServices& s() const { return computer.services(); }
};

namespace {

EndpointReply json_reply(const json& body, uint64_t seq) {
  EndpointReply r;
  r.body = json_text(body) + "\n";
  r.headers = {{kSeqHeader, std::to_string(seq)}};
  return r;
}

// Posts `reply(answer)` to the loop unless cancelled.
void answer_on(asio::io_context& io, const std::shared_ptr<bool>& cancelled, const ReplyFn& reply,
               EndpointReply answer) {
  asio::post(io, [cancelled, reply, answer = std::move(answer)]() mutable {
    if (!*cancelled) reply(std::move(answer));
  });
}

std::function<void(int, const std::string&)> failure(asio::io_context& io, std::shared_ptr<bool> cancelled,
                                                     ReplyFn reply) {
  return [&io, cancelled, reply](int status, const std::string& error) {
    answer_on(io, cancelled, reply, net::json_error(status, "", error));
  };
}

// The snapshot a tree or find request asks for; nullopt when the answer
// was given (an element id that names nothing).
std::optional<platform::A11ySnapshot> take(platform::Accessibility& a11y, const A11yTreeRequest& t,
                                           const std::function<void(EndpointReply)>& answer) {
  platform::A11yLimits limits;
  limits.max_depth = t.max_depth;
  limits.max_nodes = t.max_nodes;
  limits.deadline = Clock::now() + t.timeout;
  platform::A11ySnapshot s;
  try {
    s = a11y.snapshot(t.scope, limits);
  } catch (const std::invalid_argument&) {
    answer(net::json_error(400, "root", "root is not an element id from /a11y"));
    return std::nullopt;
  }
  if (t.scope.kind == platform::A11yScope::Kind::kNode && !s.nodes.empty() && s.nodes[0].role.empty() && !s.time_cut) {
    answer(net::json_error(404, "root", "no element has that id now (it is gone, or its application is)"));
    return std::nullopt;
  }
  return s;
}

const char* scope_name(const platform::A11yScope& scope) {
  switch (scope.kind) {
    case platform::A11yScope::Kind::kActiveWindow: return "active";
    case platform::A11yScope::Kind::kDesktop: return "desktop";
    case platform::A11yScope::Kind::kNode: return "root";
  }
  return "active";
}

// The view and seq of a request, read on the loop before the question.
struct Asked {
  A11yView view;
  uint64_t seq = 0;
};

std::optional<Asked> asked(const A11yContext& c, const ScaleSpec& scale, const ReplyFn& reply) {
  Asked a;
  a.view.picture = picture_now(c.s());
  if (!a.view.picture.known()) {
    reply(net::json_error(503, "", "the picture's size is not known yet (no display?)"));
    return std::nullopt;
  }
  a.view.scaling = Scaling::fit(a.view.picture.area, scale);
  a.seq = c.s().changes.current_seq();
  return a;
}

CancelFn run_tree(A11yContext& c, const A11yTreeRequest& t, ReplyFn reply) {
  const auto a = asked(c, t.scale, reply);
  if (!a) return nullptr;
  auto cancelled = std::make_shared<bool>(false);
  auto& io = c.s().io;
  A11yService::Job job;
  job.failed = failure(io, cancelled, reply);
  job.run = [&io, cancelled, reply, t, a = *a](platform::Accessibility& a11y) {
    const auto answer = [&](EndpointReply r) { answer_on(io, cancelled, reply, std::move(r)); };
    const auto start = Clock::now();
    const auto s = take(a11y, t, answer);
    if (!s) return;
    json out = snapshot_json(*s, a.view);
    out["seq"] = a.seq;
    out["scope"] = scope_name(t.scope);
    out["coordinates"] = coordinate_space_json(a.view);
    out["elapsed_ms"] = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    if (t.scope.kind == platform::A11yScope::Kind::kActiveWindow && s->nodes.empty())
      out["note"] = "no window is on screen: ask with scope=desktop";
    else if (s->window_guessed)
      out["note"] = "no window says it is active (without a window manager none may): this is the largest one on "
                    "screen; scope=desktop shows them all";
    answer(json_reply(out, a.seq));
  };
  if (!c.a11y.submit(std::move(job)))
    return reply(net::json_error(503, "", "too many accessibility questions are waiting; try again")), nullptr;
  return [cancelled] { *cancelled = true; };
}

CancelFn run_find(A11yContext& c, const A11yFindRequest& request, ReplyFn reply) {
  const auto f = &request;
  const auto a = asked(c, f->tree.scale, reply);
  if (!a) return nullptr;
  auto cancelled = std::make_shared<bool>(false);
  auto& io = c.s().io;
  A11yService::Job job;
  job.failed = failure(io, cancelled, reply);
  job.run = [&io, cancelled, reply, f = *f, a = *a](platform::Accessibility& a11y) {
    const auto answer = [&](EndpointReply r) { answer_on(io, cancelled, reply, std::move(r)); };
    const auto start = Clock::now();
    const auto s = take(a11y, f.tree, answer);
    if (!s) return;
    json matches = json::array();
    for (size_t i : find_nodes(*s, f)) matches.push_back(node_json(*s, i, a.view, false));
    json whole = snapshot_json(*s, a.view);
    json out = {{"seq", a.seq},
                {"scope", scope_name(f.tree.scope)},
                {"coordinates", coordinate_space_json(a.view)},
                {"searched", s->nodes.size()},
                {"matches", std::move(matches)}};
    if (whole.contains("cut")) out["cut"] = std::move(whole["cut"]);
    out["elapsed_ms"] = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - start).count();
    answer(json_reply(out, a.seq));
  };
  if (!c.a11y.submit(std::move(job)))
    return reply(net::json_error(503, "", "too many accessibility questions are waiting; try again")), nullptr;
  return [cancelled] { *cancelled = true; };
}

// An act in progress: acted on the worker, settled on the loop, the
// element described on the worker again.
struct Act {
  A11yActRequest request;
  ComputerOptions options;
  uint64_t before_seq = 0;
  platform::A11yActed acted;
  ComputerOutcome outcome;
  ReplyFn reply;
  std::shared_ptr<bool> cancelled = std::make_shared<bool>(false);
  std::function<void()> cancel_settle;
};

void describe_and_answer(A11yContext& c, const std::shared_ptr<Act>& act) {  // c: see settle()
  auto& io = c.s().io;
  A11yService::Job job;
  const auto give = [&io, act](EndpointReply r) { answer_on(io, act->cancelled, act->reply, std::move(r)); };
  job.failed = [give, act](int, const std::string& error) {
    // The action was done; only the element's new state is missing.
    act->outcome.info["element_error"] = error;
    give(computer_reply(std::move(act->outcome)));
  };
  const auto picture = picture_now(c.s());
  job.run = [give, act, view = A11yView{picture, Scaling::fit(picture.area, act->options.scale)}](
                platform::Accessibility& a11y) {
    const auto node = a11y.describe(act->request.id, Clock::now() + kActTimeout);
    json& info = act->outcome.info;
    if (node) {
      platform::A11ySnapshot one;
      one.nodes.push_back(*node);
      info["element"] = node_json(one, 0, view, false);
    } else {
      info["element"] = nullptr;
      info["element_gone"] = true;
    }
    give(computer_reply(std::move(act->outcome)));
  };
  if (!c.a11y.submit(std::move(job))) {
    act->outcome.info["element_error"] = "too many accessibility questions are waiting";
    act->reply(computer_reply(std::move(act->outcome)));
  }
}

// On the loop, after the application acted (or said where to click).
// `c` is alive: ComputerUse calls nothing back once it is gone, and it goes
// before the A11yService.
void settle(const std::shared_ptr<A11yContext>& cp, const std::shared_ptr<Act>& act) {
  A11yContext& c = *cp;
  const platform::A11yActed& done = act->acted;
  if (done.gone) return act->reply(net::json_error(404, "id", "no element has that id now (it is gone, or its application is)"));
  ComputerAction action;
  action.schema = ComputerSchema::kA11y;
  action.name = a11y_action_name(act->request.action);
  action.settle = true;
  if (done.type_instead) {
    // The element has the focus: what it holds is selected and typed over.
    const nlohmann::json replace = act->request.text.empty()
                                       ? nlohmann::json{{"type", "key"}, {"keys", "backspace"}}
                                       : nlohmann::json{{"type", "type"}, {"text", act->request.text}};
    const nlohmann::json keys = {{"actions", {{{"type", "key"}, {"keys", "ctrl+a"}}, replace}}};
    ActionError error;
    const input::PictureMapping picture = picture_now(c.s());
    auto typed = parse_input_actions(json_text(keys), picture.area, 1, error);
    if (!typed)
      return act->reply(net::json_error(409, "text", "set_text: the element takes no text directly, and typing it "
                                                     "failed: " + error.message));
    action.input = std::move(*typed);
  } else if (!done.done) {
    if (!done.click_at) return act->reply(net::json_error(409, "action", std::string(action.name) + ": " + done.how));
    // No accessible action presses it: a click at its centre, through
    // the same input path as /computer.
    const input::PictureMapping picture = picture_now(c.s());
    const Point p{done.click_at->x - picture.origin.x, done.click_at->y - picture.origin.y};
    if (!picture.known() || !Rect::from_size(picture.area).contains(Rect{p.x, p.y, 1, 1}))
      return act->reply(net::json_error(409, "id", "the element is outside the picture, so it cannot be clicked"));
    const Point seen = Scaling::fit(picture.area, act->options.scale).to_scaled(p.x, p.y);
    InputAction click;
    click.type = InputAction::Type::kClick;
    click.name = "click";
    click.positioned = true;
    click.x = seen.x;
    click.y = seen.y;
    action.input.push_back(click);
  }
  const std::string how = done.how;
  act->cancel_settle = c.computer.run_action(
      std::move(action), act->options,
      [cp, act, how](ComputerOutcome o) {
        if (*act->cancelled) return;
        if (o.status != 200) return act->reply(computer_reply(std::move(o)));
        o.info["done"] = how;
        act->outcome = std::move(o);
        describe_and_answer(*cp, act);
      },
      act->before_seq);
}

CancelFn run_act(const std::shared_ptr<A11yContext>& cp, A11yActRequest request, const ComputerOptions& options,
                 ReplyFn reply) {
  A11yContext& c = *cp;
  if (options.view_only)
    return reply(net::json_error(403, "", net::view_only_refusal(options.user, "act on the desktop"))), nullptr;
  auto a = std::make_shared<Act>();
  a->options = options;
  a->request = std::move(request);
  a->reply = std::move(reply);
  a->before_seq = c.s().changes.current_seq();
  auto& io = c.s().io;
  A11yService::Job job;
  job.failed = failure(io, a->cancelled, a->reply);
  job.run = [&io, cp, a, alive = c.a11y.alive()](platform::Accessibility& a11y) {
    a->acted = a11y.act(a->request.id, a->request.action, a->request.text, Clock::now() + kActTimeout);
    asio::post(io, [cp, a, alive] {
      if (*alive && !*a->cancelled) settle(cp, a);
    });
  };
  if (!c.a11y.submit(std::move(job)))
    return a->reply(net::json_error(503, "", "too many accessibility questions are waiting; try again")), nullptr;
  return [a] {
    *a->cancelled = true;
    if (a->cancel_settle) a->cancel_settle();
  };
}

CancelFn tree(A11yContext& c, const EndpointRequest& req, ReplyFn reply) {
  auto q = endpoint_query(req, {"scope", "root", "max_depth", "max_nodes", "timeout", "scale", "max_width", "max_height"},
                          reply);
  if (!q) return nullptr;
  A11yTreeRequest t;
  net::ParamError error;
  if (!parse_a11y_query(*q, t, error)) return reply(bad_parameter(error)), nullptr;
  return run_tree(c, t, std::move(reply));
}

CancelFn find(A11yContext& c, const EndpointRequest& req, ReplyFn reply) {
  auto q = endpoint_query(req, {}, reply);
  if (!q) return nullptr;
  ActionError error;
  auto f = parse_a11y_find(req.body, error);
  if (!f) return reply(net::json_error(400, error.parameter, error.message)), nullptr;
  return run_find(c, *f, std::move(reply));
}

CancelFn act(const std::shared_ptr<A11yContext>& cp, const EndpointRequest& req, ReplyFn reply) {
  auto q = endpoint_query(req, {"scale", "max_width", "max_height", "screenshot", "cursor", "react", "settle",
                                "settle_timeout"},
                          reply);
  if (!q) return nullptr;
  ComputerOptions options;
  net::ParamError perror;
  options.settle_cap = std::min(options.settle_cap, cp->s().max_wait);
  if (!parse_computer_options(*q, cp->s().max_wait, options, perror)) return reply(bad_parameter(perror)), nullptr;
  options.view_only = req.view_only;
  options.user = req.user;
  if (options.view_only)
    return reply(net::json_error(403, "", req.cannot("act on the desktop"))), nullptr;
  ActionError error;
  auto request = parse_a11y_act(req.body, error);
  if (!request) return reply(net::json_error(400, error.parameter, error.message)), nullptr;
  return run_act(cp, std::move(*request), options, std::move(reply));
}

}  // namespace

A11yTools::A11yTools(A11yService& a11y, ComputerUse& computer)
    : c_(std::make_shared<A11yContext>(A11yContext{a11y, computer})) {}

net::CancelFn A11yTools::tree(const A11yTreeRequest& request, net::ReplyFn reply) const {
  return run_tree(*c_, request, std::move(reply));
}

net::CancelFn A11yTools::find(const A11yFindRequest& request, net::ReplyFn reply) const {
  return run_find(*c_, request, std::move(reply));
}

net::CancelFn A11yTools::act(A11yActRequest request, const ComputerOptions& options, net::ReplyFn reply) const {
  return run_act(c_, std::move(request), options, std::move(reply));
}

std::chrono::milliseconds A11yTools::max_wait() const { return c_->s().max_wait; }

net::EndpointTable a11y_endpoints(const A11yTools& tools) {
  auto c = tools.c_;
  net::EndpointTable t;
  t["/a11y"] = {{"GET"}, [c](EndpointRequest& req, ReplyFn reply) { return tree(*c, req, std::move(reply)); }};
  t["/a11y/find"] = {{"POST"}, [c](EndpointRequest& req, ReplyFn reply) { return find(*c, req, std::move(reply)); }};
  t["/a11y/act"] = {{"POST"}, [c](EndpointRequest& req, ReplyFn reply) { return act(c, req, std::move(reply)); }};
  return t;
}

}  // namespace voxl::endpoints
