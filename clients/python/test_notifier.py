"""Tests of notifier.py against a real Notifier.

The daemon's support folder comes from ``NOTIFIER_SUPPORT_DIR``; ``test/clients/clients.test.ts`` starts a daemon on a temp
folder and runs ``python3 -m unittest -v test_notifier`` here. By hand, use a throwaway daemon (the tests close
every banner and add apps and History records; the reply tests need the replies typed: their banners' reply fields
say what to type, within 20 seconds)::

    npm start -- --port 0 --support-dir /tmp/notifier-py &
    NOTIFIER_SUPPORT_DIR=/tmp/notifier-py python3 -m unittest -v test_notifier

App ids carry a suffix unique to the run, so the suite can run again against the same daemon.
"""

from __future__ import annotations

import http.server
import os
import socket
import subprocess
import sys
import tempfile
import threading
import unittest
import uuid
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Any, Dict, List
from unittest import mock

import notifier as notifier_module
from notifier import DEFAULT_PORT, Notifier, NotifierError, NotifierUnavailable

HERE = Path(__file__).resolve().parent
SUPPORT_DIR = os.environ.get("NOTIFIER_SUPPORT_DIR", "")
RUN = uuid.uuid4().hex[:8]


def app_id(name: str) -> str:
    """An app id of this run: records left by an earlier run against the same daemon do not count."""
    return f"py-{name}-{RUN}"


def setUpModule() -> None:
    if not SUPPORT_DIR or not (Path(SUPPORT_DIR) / "port").is_file():
        raise RuntimeError("NOTIFIER_SUPPORT_DIR must name the support folder of a running Notifier")


def closed_port() -> int:
    """A port nobody listens on: the system hands out a free one, and we close it again."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def record(notifier: Notifier, app: str, id: str) -> Dict[str, Any]:
    matches = [item for item in notifier.history(app) if item["id"] == id]
    if len(matches) != 1:
        raise AssertionError(f"History of {app} has {len(matches)} records with id {id}")
    return matches[0]


class ErrorServer:
    """A local HTTP server answering every request with one status and body."""

    def __init__(self, status: int, body: bytes, content_type: str = "text/plain") -> None:
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the base class's name
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "ErrorServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()


class AgainstRunningNotifier(unittest.TestCase):
    notifier: Notifier

    @classmethod
    def setUpClass(cls) -> None:
        cls.notifier = Notifier()  # the support folder comes from NOTIFIER_SUPPORT_DIR

    def test_reads_the_port_from_the_support_folder_named_by_the_environment(self) -> None:
        port = int((Path(SUPPORT_DIR) / "port").read_text().strip())
        self.assertEqual(self.notifier.port, port)
        self.assertEqual(self.notifier.base_url, f"http://127.0.0.1:{port}")

    def test_is_available_and_health_report_the_running_service(self) -> None:
        self.assertIs(self.notifier.is_available(), True)
        health = self.notifier.health()
        self.assertIs(health["ok"], True)
        self.assertIsInstance(health["version"], str)
        self.assertIsInstance(health["pid"], int)

    def test_notify_returns_the_id_and_history_holds_it_with_the_extra_fields(self) -> None:
        app = app_id("notify")
        notification_id = self.notifier.notify(app, "Build finished", body="All green", subtitle=None, project="alpha")
        self.assertIsInstance(notification_id, str)
        self.assertNotEqual(notification_id, "")
        item = record(self.notifier, app, notification_id)
        self.assertEqual(item["notification"]["title"], "Build finished")
        self.assertEqual(item["notification"]["body"], "All green")
        self.assertNotIn("subtitle", item["notification"])  # None values are not sent
        self.assertEqual(item["notification"]["metadata"], {"project": "alpha"})
        self.assertEqual(item["fields"]["project"], "alpha")

    def test_notify_keeps_the_id_the_sender_gives(self) -> None:
        app, own = app_id("own-id"), f"my-id-{RUN}"
        self.assertEqual(self.notifier.notify(app, "Mine", id=own), own)
        self.assertEqual(record(self.notifier, app, own)["notification"]["title"], "Mine")

    def test_history_is_newest_first_and_honours_the_limit(self) -> None:
        app = app_id("limit")
        ids = [self.notifier.notify(app, f"Number {n}") for n in range(3)]
        self.assertEqual([item["id"] for item in self.notifier.history(app, limit=2)], [ids[2], ids[1]])
        self.assertEqual(len(self.notifier.history(app)), 3)

    def test_register_then_apps_lists_the_app(self) -> None:
        self.assertIsNone(self.notifier.register(app_id("register"), appName="Python Register", callbackURL=None))
        apps: List[Dict[str, Any]] = self.notifier.apps()
        entry = next(item for item in apps if item["app"] == app_id("register"))
        self.assertEqual(entry["appName"], "Python Register")
        self.assertNotIn("callbackURL", entry)

    def test_dismiss_closes_one_banner_and_keeps_its_record(self) -> None:
        app = app_id("dismiss")
        kept = self.notifier.notify(app, "Stays", persistent=True)
        closed = self.notifier.notify(app, "Goes", persistent=True)
        self.assertNotIn("dismissedAt", record(self.notifier, app, closed))
        self.notifier.dismiss(app, closed)
        self.assertIn("dismissedAt", record(self.notifier, app, closed))
        self.assertNotIn("dismissedAt", record(self.notifier, app, kept))
        self.notifier.dismiss(app, "not-on-screen")  # not an error

    def test_dismiss_all_closes_one_apps_banners_or_every_banner(self) -> None:
        first = self.notifier.notify(app_id("all-1"), "One", persistent=True)
        second = self.notifier.notify(app_id("all-2"), "Two", persistent=True)
        self.notifier.dismiss_all(app_id("all-1"))
        self.assertIn("dismissedAt", record(self.notifier, app_id("all-1"), first))
        self.assertNotIn("dismissedAt", record(self.notifier, app_id("all-2"), second))
        self.notifier.dismiss_all()
        self.assertIn("dismissedAt", record(self.notifier, app_id("all-2"), second))

    def test_clear_history_removes_only_that_apps_records(self) -> None:
        self.notifier.notify(app_id("clear"), "Gone soon")
        other = self.notifier.notify(app_id("clear-other"), "Stays")
        self.notifier.clear_history(app_id("clear"))
        self.assertEqual(self.notifier.history(app_id("clear")), [])
        self.assertEqual([item["id"] for item in self.notifier.history(app_id("clear-other"))], [other])

    def test_clear_history_refuses_an_empty_app_instead_of_clearing_every_app(self) -> None:
        other = self.notifier.notify(app_id("clear-guard"), "Stays")
        with self.assertRaises(ValueError):
            self.notifier.clear_history("")
        self.assertEqual([item["id"] for item in self.notifier.history(app_id("clear-guard"))], [other])

    def test_a_refused_request_raises_notifier_error_with_status_and_message(self) -> None:
        with self.assertRaises(NotifierError) as caught:
            self.notifier.notify(app_id("bad"), None)
        self.assertNotIsInstance(caught.exception, NotifierUnavailable)
        self.assertEqual(caught.exception.status, 400)
        self.assertEqual(caught.exception.message, "missing field: title")
        with self.assertRaises(NotifierError) as caught:
            self.notifier.history(app_id("bad"), limit=-1)
        self.assertEqual(caught.exception.status, 400)
        self.assertIn("limit", caught.exception.message)

    def test_a_wrong_token_raises_notifier_error_401(self) -> None:
        with self.assertRaises(NotifierError) as caught:
            Notifier(token="0" * 64).apps()
        self.assertEqual(caught.exception.status, 401)
        self.assertNotEqual(caught.exception.message, "")
        self.assertIs(Notifier(token="0" * 64).is_available(), True)  # health needs no token


class SupportFolder(unittest.TestCase):
    def setUp(self) -> None:
        temp = tempfile.TemporaryDirectory(prefix="notifier-py-")
        self.addCleanup(temp.cleanup)
        self.folder = Path(temp.name)
        self.running = Notifier()

    def test_the_token_file_is_read_again_on_every_call(self) -> None:
        (self.folder / "port").write_text(f"{self.running.port}\n")
        (self.folder / "token").write_text("f" * 64)
        notifier = Notifier(support_dir=self.folder)
        with self.assertRaises(NotifierError) as caught:
            notifier.apps()
        self.assertEqual(caught.exception.status, 401)
        (self.folder / "token").write_text((Path(SUPPORT_DIR) / "token").read_text())
        self.assertIsInstance(notifier.apps(), list)

    def test_a_given_token_wins_over_the_token_file(self) -> None:
        (self.folder / "port").write_text(str(self.running.port))
        (self.folder / "token").write_text("f" * 64)
        token = (Path(SUPPORT_DIR) / "token").read_text().strip()
        self.assertIsInstance(Notifier(support_dir=self.folder, token=token).apps(), list)

    def test_a_folder_of_its_own_without_a_port_file_is_not_running_and_calls_nothing(self) -> None:
        (self.folder / "token").write_text((Path(SUPPORT_DIR) / "token").read_text())
        for port_file in ("48x17", None):  # not digits, then no file at all (a stopped instance)
            if port_file is None:
                (self.folder / "port").unlink()
            else:
                (self.folder / "port").write_text(port_file)
            notifier = Notifier(support_dir=self.folder)
            self.assertEqual((notifier.port, notifier.base_url), (None, None))
            with self.assertRaises(NotifierUnavailable) as caught:
                notifier.apps()
            self.assertEqual(caught.exception.message, f"Notifier is not running: there is no port file in {self.folder}.")
            self.assertIs(notifier.is_available(), False)
        self.assertEqual(Notifier(port=1234, support_dir=self.folder).base_url, "http://127.0.0.1:1234")

    def test_a_port_file_written_later_is_found_by_the_next_call(self) -> None:
        notifier = Notifier(support_dir=self.folder, token=(Path(SUPPORT_DIR) / "token").read_text().strip())
        self.assertIsNone(notifier.port)
        (self.folder / "port").write_text(str(self.running.port))
        self.assertIsInstance(notifier.apps(), list)
        self.assertEqual(notifier.port, self.running.port)

    def test_the_platform_folder_without_a_port_file_means_the_default_port(self) -> None:
        # HOME and XDG_DATA_HOME in a temporary folder: the platform's folder is an empty one of this test's.
        env = {"HOME": str(self.folder), "XDG_DATA_HOME": str(self.folder / "data"), "APPDATA": str(self.folder / "data")}
        with mock.patch.dict(os.environ, env):
            del os.environ["NOTIFIER_SUPPORT_DIR"]
            platform_folder = notifier_module.default_support_dir()
            self.assertTrue(str(platform_folder).startswith(str(self.folder)))
            self.assertEqual(Notifier().port, DEFAULT_PORT)
            self.assertEqual(Notifier(support_dir=platform_folder).port, DEFAULT_PORT)
            os.environ["NOTIFIER_SUPPORT_DIR"] = str(platform_folder)  # named explicitly, it is still the platform's
            self.assertEqual(Notifier().port, DEFAULT_PORT)

    def test_the_port_is_read_once_when_the_object_is_made(self) -> None:
        (self.folder / "port").write_text("40001")
        notifier = Notifier(support_dir=self.folder)
        (self.folder / "port").write_text("40002")
        self.assertEqual(notifier.port, 40001)


class WhenNothingAnswers(unittest.TestCase):
    def test_a_closed_port_raises_notifier_unavailable_and_is_not_available(self) -> None:
        notifier = Notifier(port=closed_port(), token="x")
        self.assertIs(notifier.is_available(), False)
        with self.assertRaises(NotifierUnavailable) as caught:
            notifier.notify(app_id("closed"), "Nobody listens")
        self.assertIsInstance(caught.exception, NotifierError)
        self.assertEqual(caught.exception.status, 0)
        self.assertIn("not running", caught.exception.message)

    def test_the_timeout_option_gives_up_on_a_server_that_never_answers(self) -> None:
        with socket.socket() as silent:  # accepts connections (the backlog) and never answers
            silent.bind(("127.0.0.1", 0))
            silent.listen(8)
            notifier = Notifier(port=silent.getsockname()[1], token="x", timeout=0.3)
            with self.assertRaises(NotifierUnavailable) as caught:
                notifier.health()
            self.assertEqual(caught.exception.status, 0)
            self.assertIn("0.3 seconds", caught.exception.message)
            self.assertIs(notifier.is_available(), False)

    def test_an_error_answer_is_not_available_and_keeps_the_raw_text_as_message(self) -> None:
        with ErrorServer(500, b"something broke") as server:
            notifier = Notifier(port=server.port, token="x")
            self.assertIs(notifier.is_available(), False)
            with self.assertRaises(NotifierError) as caught:
                notifier.health()
        self.assertNotIsInstance(caught.exception, NotifierUnavailable)
        self.assertEqual((caught.exception.status, caught.exception.message), (500, "something broke"))

    def test_the_message_comes_from_the_error_key_of_a_json_answer(self) -> None:
        with ErrorServer(503, b'{"error": "busy"}', "application/json") as server:
            with self.assertRaises(NotifierError) as caught:
                Notifier(port=server.port, token="x").health()
        self.assertEqual((caught.exception.status, caught.exception.message), (503, "busy"))


def ask(notifier: Notifier, app: str, answer: str = "") -> str:
    """A notification with a reply field; ``answer`` is what the person types once a request waits for the reply.

    Only the person can reply. ``test/clients/clients.test.ts`` plays the person: when a request starts waiting for a
    reply to a banner whose field reads ``type: <text>``, it types ``<text>``; other banners get no reply.
    """
    placeholder = f"type: {answer}" if answer else "Why?"
    return notifier.notify(app, "A question", buttons=[{"label": "Reply", "reply": {"placeholder": placeholder}}])


class Replies(unittest.TestCase):
    """``replies``, ``wait_for_reply``, ``snooze`` and ``unsnooze``."""

    notifier: Notifier

    @classmethod
    def setUpClass(cls) -> None:
        cls.notifier = Notifier()

    def test_a_reply_typed_while_waiting_is_returned_and_consumed(self) -> None:
        app = app_id("wait")
        id = ask(self.notifier, app, answer="Yes, ship it")
        self.assertEqual(self.notifier.replies(app), [])
        reply = self.notifier.wait_for_reply(id, app=app, timeout=20)
        assert reply is not None
        self.assertEqual((reply["notificationId"], reply["app"], reply["text"]), (id, app, "Yes, ship it"))
        self.assertEqual(reply["title"], "A question")
        self.assertEqual(self.notifier.replies(app), [])  # consumed by the wait
        self.assertEqual(record(self.notifier, app, id)["reply"], "Yes, ship it")  # History keeps it

    def test_no_reply_within_the_timeout_gives_none(self) -> None:
        app = app_id("silent")
        id = ask(self.notifier, app)
        self.assertIsNone(self.notifier.wait_for_reply(id, app=app, timeout=1))

    def test_a_wait_longer_than_the_objects_timeout_is_not_cut_short(self) -> None:
        app = app_id("long-wait")
        id = ask(self.notifier, app)
        short = Notifier(timeout=0.5)
        self.assertIsNone(short.wait_for_reply(id, app=app, timeout=1.5))

    def test_consume_false_leaves_the_reply_in_the_queue_until_replies_consumes_it(self) -> None:
        app = app_id("keep")
        id = ask(self.notifier, app, answer="Later today")
        reply = self.notifier.wait_for_reply(id, app=app, timeout=20, consume=False)
        assert reply is not None
        self.assertEqual(self.notifier.replies(app), [reply])
        self.assertEqual(self.notifier.replies(app, since="2000-01-01T00:00:00Z"), [reply])
        self.assertEqual(self.notifier.replies(app, since=datetime.now(timezone.utc) + timedelta(hours=1)), [])
        self.assertEqual(self.notifier.replies(app, consume=True), [reply])
        self.assertEqual(self.notifier.replies(app), [])

    def test_snooze_returns_when_the_banner_comes_back_and_unsnooze_brings_it_back(self) -> None:
        app = app_id("snooze")
        id = self.notifier.notify(app, "Later", persistent=True)
        until = datetime.fromisoformat(self.notifier.snooze(app, id, 5).replace("Z", "+00:00"))
        self.assertAlmostEqual((until - datetime.now(timezone.utc)).total_seconds(), 300, delta=30)
        self.assertEqual(record(self.notifier, app, id)["snoozedUntil"].replace("Z", "+00:00"), until.isoformat(timespec="milliseconds"))
        self.notifier.unsnooze(app, id)
        self.assertNotIn("snoozedUntil", record(self.notifier, app, id))
        with self.assertRaises(NotifierError) as caught:
            self.notifier.snooze(app, id, 0)
        self.assertEqual(caught.exception.status, 400)


class Demo(unittest.TestCase):
    """``python3 notifier.py "Title" ["Body"]``."""

    def run_demo(self, *args: str, support_dir: str = SUPPORT_DIR) -> subprocess.CompletedProcess:
        env = {**os.environ, "NOTIFIER_SUPPORT_DIR": support_dir}
        return subprocess.run(
            [sys.executable, str(HERE / "notifier.py"), *args], env=env, capture_output=True, text=True, timeout=60
        )

    def test_sends_one_notification_and_prints_its_id(self) -> None:
        done = self.run_demo("Demo title", "Demo body")
        self.assertEqual(done.returncode, 0, done.stderr)
        item = record(Notifier(), "notifier-python", done.stdout.strip())
        self.assertEqual((item["notification"]["title"], item["notification"]["body"]), ("Demo title", "Demo body"))

    def test_exits_2_when_notifier_is_not_running(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "port").write_text(str(closed_port()))
            done = self.run_demo("Nobody listens", support_dir=folder)
        self.assertEqual(done.returncode, 2)
        self.assertIn("not running", done.stderr)

    def test_exits_1_on_any_other_error(self) -> None:
        with tempfile.TemporaryDirectory() as folder:
            Path(folder, "port").write_text((Path(SUPPORT_DIR) / "port").read_text())
            Path(folder, "token").write_text("f" * 64)
            done = self.run_demo("Wrong token", support_dir=folder)
        self.assertEqual(done.returncode, 1)
        self.assertIn("401", done.stderr)
        self.assertEqual(self.run_demo().returncode, 1)  # no title: usage


if __name__ == "__main__":
    unittest.main()
