// The live monitor (tools/monitor): addresses, the access rules, the server over real sockets with
// a Beast client, and `augur step --monitor` driven over its WebSocket (label `monitor`).
#include <doctest/doctest.h>

#include <boost/system/system_error.hpp>
#include <nlohmann/json.hpp>

#include <string>

#include "engine/event.hpp"
#include "tests/support/background.hpp"
#include "tests/support/web_client.hpp"
#include "tests/tools/run_augur.hpp"
#include "tools/monitor/server.hpp"
#include "tools/monitor/watcher.hpp"

namespace {

using augur::tools::monitor::parse_endpoint;
using augur::tools::monitor::request_status;
using augur::tools::monitor::Server;
using augur::tools::monitor::Shown;
using augur::tools::monitor::Watcher;
using nlohmann::json;

/// The next message of type `type` from `ws` (states come a few times per second, others between).
json next_of(augur::test::WsClient& ws, const std::string& type) {
  for (;;) {
    json m = json::parse(ws.read());
    if (m["type"] == type) return m;
  }
}

/// The next state with `events` events and paused.
json paused_at(augur::test::WsClient& ws, std::uint64_t events) {
  for (;;) {
    json m = next_of(ws, "state");
    if (m["paused"] == true && m["events"] == events) return m;
  }
}

}  // namespace

TEST_SUITE("monitor") {
  TEST_CASE("--monitor addresses are an IPv4 address or localhost and a port") {
    CHECK(parse_endpoint("127.0.0.1:0")->port == 0);
    CHECK(parse_endpoint("localhost:8080")->address == "127.0.0.1");
    CHECK(parse_endpoint("0.0.0.0:65535")->port == 65535);
    CHECK_FALSE(parse_endpoint("127.0.0.1:65536"));
    CHECK_FALSE(parse_endpoint("127.0.0.1"));
    CHECK_FALSE(parse_endpoint("example.org:80"));
    CHECK_FALSE(parse_endpoint("127.0.0.1:-1"));
    CHECK_FALSE(parse_endpoint("scenario.yaml"));
  }

  TEST_CASE("Requests need the token - the bound host and the same origin") {
    const std::string t = "0123456789abcdef0123456789abcdef";
    const std::string host = "127.0.0.1:4000";
    CHECK(request_status("/?token=" + t, host, "", t, 4000, true) == 200);
    CHECK(request_status("/ws?token=" + t, "localhost:4000", "http://localhost:4000", t, 4000, true) == 200);
    CHECK(request_status("/", host, "", t, 4000, true) == 403);
    CHECK(request_status("/?token=" + t.substr(1), host, "", t, 4000, true) == 403);
    CHECK(request_status("/?x=1&token=" + t + "0", host, "", t, 4000, true) == 403);
    CHECK(request_status("/?x=1&token=" + t, host, "", t, 4000, true) == 200);
    CHECK(request_status("/?token=" + t, host, "http://evil.example", t, 4000, true) == 403);
    CHECK(request_status("/?token=" + t, "evil.example:4000", "", t, 4000, true) == 403);  // DNS rebinding
    CHECK(request_status("/?token=" + t, "127.0.0.1:4001", "", t, 4000, true) == 403);
    CHECK(request_status("/?token=" + t, "box.lan:4000", "http://box.lan:4000", t, 4000, false) == 200);
    CHECK(request_status("/favicon.ico?token=" + t, host, "", t, 4000, true) == 404);
    CHECK(request_status("/favicon.ico", host, "", t, 4000, true) == 403);  // nothing said without the token
  }

  TEST_CASE("The server answers 403 without the token or from another origin - serves the page and the socket") {
    Server server({"127.0.0.1", 0});
    const std::uint16_t port = server.port();
    REQUIRE(port != 0);
    CHECK(server.token().size() == 32);
    CHECK(server.url() == "http://127.0.0.1:" + std::to_string(port) + "/?token=" + server.token());
    const std::string with_token = "/?token=" + server.token();
    CHECK(augur::test::http_get(port, "/").status == 403);
    CHECK(augur::test::http_get(port, "/?token=0000").status == 403);
    CHECK(augur::test::http_get(port, with_token, "http://evil.example").status == 403);
    CHECK(augur::test::http_get(port, with_token, "", "evil.example:" + std::to_string(port)).status == 403);
    CHECK(augur::test::http_get(port, "/nothing?token=" + server.token()).status == 404);
    const auto page = augur::test::http_get(port, with_token, "http://127.0.0.1:" + std::to_string(port));
    CHECK(page.status == 200);
    CHECK(page.body.find("<canvas id=\"grid\"") != std::string::npos);

    CHECK_THROWS_AS(augur::test::WsClient(port, "/ws"), boost::system::system_error);
    CHECK_THROWS_AS(augur::test::WsClient(port, "/ws?token=" + server.token(), "http://evil.example"),
                    boost::system::system_error);
    CHECK(server.pages() == 0);
    augur::test::WsClient ws(port, "/ws?token=" + server.token(), "http://127.0.0.1:" + std::to_string(port));
    server.publish_state(R"({"type":"state","n":1})");
    CHECK(ws.read() == R"({"type":"state","n":1})");
    CHECK(server.pages() == 1);
    ws.send("step 5");
    ws.send("print 2");
    CHECK(server.next_command(std::chrono::seconds(10)) == "step 5");
    CHECK(server.next_command(std::chrono::seconds(10)) == "print 2");
    CHECK_FALSE(server.has_command());
    CHECK_FALSE(server.next_command(std::chrono::milliseconds(1)));
    server.send(R"({"type":"lp"})");
    CHECK(ws.read() == R"({"type":"lp"})");
    // A page that connects later gets the latest state at once.
    server.publish_state(R"({"type":"state","n":2})");
    CHECK(ws.read() == R"({"type":"state","n":2})");
    augur::test::WsClient late(port, "/ws?token=" + server.token());
    CHECK(late.read() == R"({"type":"state","n":2})");
    CHECK(server.attach());
    CHECK_FALSE(server.attach());
    server.detach();
    CHECK(server.attach());
  }

  TEST_CASE("Cells show computing - communicating or waiting by the LP's last event") {
    augur::engine::Event e;
    e.kind = augur::engine::EventKind::compute;
    CHECK(Watcher::shown_after(e, Shown::idle) == Shown::computing);
    e.kind = augur::engine::EventKind::send;
    CHECK(Watcher::shown_after(e, Shown::computing) == Shown::communicating);
    e.kind = augur::engine::EventKind::wait;
    e.waited = 1e-6;
    CHECK(Watcher::shown_after(e, Shown::computing) == Shown::waiting);
    e.kind = augur::engine::EventKind::interval_enter;
    CHECK(Watcher::shown_after(e, Shown::blocked) == Shown::blocked);
  }

  TEST_CASE("augur step --monitor: paused at the first event - steps - prints an LP as the stepper does - runs on") {
    const auto dir = augur::test::scratch_dir("augur_monitor_", "step");
    const std::string trace = "synthetic:P=64,I=20";
    augur::test::Background augur({AUGUR_BINARY, "step", "--trace", trace, "--wait-states", "off", "--monitor"},
                                  dir / "out.txt", dir / "err.txt");
    const std::string line = augur.err_line("augur: monitor: http://127.0.0.1:", std::chrono::seconds(60));
    REQUIRE(!line.empty());
    const auto port_at = line.find("127.0.0.1:") + 10;
    const auto port = static_cast<std::uint16_t>(std::stoi(line.substr(port_at)));
    const std::string token = line.substr(line.find("token=") + 6, 32);
    CHECK(augur::test::http_get(port, "/").status == 403);

    augur::test::WsClient ws(port, "/ws?token=" + token);
    json s = paused_at(ws, 1);
    CHECK(s["lps"] == 64);
    CHECK(s["group"] == 1);
    CHECK(s["cells"].get<std::string>().size() == 64);
    CHECK_MESSAGE(s["variant"].get<std::string>().find("variant 1/1: synthetic:P=64,I=20") == 0, s["variant"]);
    ws.send("step 99");
    s = paused_at(ws, 100);
    CHECK(s["counts"][0] < 64);  // cells have left idle
    ws.send("print 5");
    const std::string printed = next_of(ws, "lp")["text"];
    ws.send("step 0");
    CHECK(next_of(ws, "error")["text"].get<std::string>().find("step N") == 0);
    ws.send("kind finish");
    s = next_of(ws, "state");
    while (s["paused"] != true || s["events"] == 100) s = next_of(ws, "state");
    CHECK(s["finished"] == false);  // stopped at the first LP's finish event
    CHECK(s["counts"][5] <= 1);
    ws.send("resume");
    for (s = next_of(ws, "state"); s["finished"] != true;) s = next_of(ws, "state");
    CHECK(s["outcome"] == "completed");
    CHECK(s["counts"][5] == 64);
    REQUIRE(augur.wait(std::chrono::seconds(60)) == 0);

    // The stepper on a terminal prints the same at the same event.
    const auto stepped = augur::test::run_augur("step --trace " + trace + " --wait-states off", "step 99\nprint 5\n");
    CHECK(stepped.out.find(printed) != std::string::npos);
    CHECK(printed.find("LP 5: clock=") == 0);
  }

  TEST_CASE("Beyond 4096 LPs each cell aggregates consecutive LPs") {
    const auto dir = augur::test::scratch_dir("augur_monitor_", "many");
    augur::test::Background augur({AUGUR_BINARY, "step", "--trace", "synthetic:P=10000,I=1", "--wait-states", "off",
                                   "--characteristics", "off", "--monitor", "127.0.0.1:0"},
                                  dir / "out.txt", dir / "err.txt");
    const std::string line = augur.err_line("augur: monitor: http://127.0.0.1:", std::chrono::seconds(60));
    REQUIRE(!line.empty());
    const auto port = static_cast<std::uint16_t>(std::stoi(line.substr(line.find("127.0.0.1:") + 10)));
    augur::test::WsClient ws(port, "/ws?token=" + line.substr(line.find("token=") + 6, 32));
    const json s = paused_at(ws, 1);
    CHECK(s["lps"] == 10000);
    CHECK(s["group"] == 3);                               // ceil(10000 / 4096)
    CHECK(s["cells"].get<std::string>().size() == 3334);  // ceil(10000 / 3)
    CHECK(s["counts"][0].get<int>() + s["counts"][1].get<int>() + s["counts"][2].get<int>() == 10000);
    ws.send("resume");
    REQUIRE(augur.wait(std::chrono::seconds(120)) == 0);
  }

  TEST_CASE("--monitor takes an address only where the run can use it") {
    const auto r = augur::test::run_augur("check --monitor x.yaml");
    CHECK(r.status == 2);
    const auto bad = augur::test::run_augur("run --trace synthetic:P=2,I=1 --monitor=1.2.3:80");
    CHECK(bad.status == 2);
    CHECK(bad.err.find("--monitor: '1.2.3:80' is not ADDRESS:PORT") != std::string::npos);
  }
}
