"""Python client for Notifier, the local desktop notification service.

Standard library only: copy this one file next to your code (or onto ``PYTHONPATH``) and::

    from notifier import Notifier, NotifierError, NotifierUnavailable

    notifier = Notifier()
    notification_id = notifier.notify("my-app", "Build finished", body="All tests passed", project="alpha")

Every method talks to ``http://127.0.0.1:<port>`` of the Notifier running on this computer. The port and the
bearer token come from its support folder (``port`` and ``token`` files) unless they are given.

Run as a script to send one notification: ``python3 notifier.py "Title" ["Body"]`` (exit code 2 when Notifier is not
running, 1 on any other error).
"""

from __future__ import annotations

import http.client
import json
import os
import re
import socket
import sys
import urllib.error
import urllib.parse
import urllib.request
from datetime import datetime
from pathlib import Path
from typing import Any, Dict, List, Mapping, Optional, Union

__all__ = ["Notifier", "NotifierError", "NotifierUnavailable", "default_support_dir", "DEFAULT_PORT"]

#: The port used when the support folder has no readable ``port`` file.
DEFAULT_PORT = 48617
#: Seconds to wait for an answer before giving up with :class:`NotifierUnavailable`.
DEFAULT_TIMEOUT = 10.0
#: ``GET /v1/history`` answers this many records when no limit is given.
DEFAULT_HISTORY_LIMIT = 50
#: Seconds :meth:`Notifier.wait_for_reply` waits for a reply when no timeout is given (the service's default).
DEFAULT_REPLY_WAIT = 60.0
#: Seconds a long wait's answer may take to come back after its own time limit: the client's socket timeout is
#: the wait plus this, so the client never gives up before the service answers "timed out".
WAIT_MARGIN = 10.0

_NOT_RUNNING = "Notifier is not running. Start it with `notifier daemon` first."

# Notifier listens on 127.0.0.1 only: a proxy named in http_proxy must never be asked to reach it.
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))

JSON = Dict[str, Any]


class NotifierError(Exception):
    """Notifier answered with an error status (400, 401, 404, 413, 429, ...).

    ``status`` is the HTTP status; ``message`` is the reply's ``error`` text (the raw reply when it has none).
    """

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

    def __str__(self) -> str:
        return f"{self.message} (status {self.status})" if self.status else self.message


class NotifierUnavailable(NotifierError):
    """Nothing answered: Notifier is not running, or it did not answer within the timeout. ``status`` is 0."""

    def __init__(self, message: str = _NOT_RUNNING) -> None:
        super().__init__(0, message)


def default_support_dir() -> Path:
    """The support folder a Notifier started without options uses (same rules as the daemon).

    ``NOTIFIER_SUPPORT_DIR`` when set; else macOS ``~/Library/Application Support/Notifier``, Windows
    ``%APPDATA%\\Notifier``, elsewhere ``$XDG_DATA_HOME/notifier`` or ``~/.local/share/notifier``.
    """
    given = os.environ.get("NOTIFIER_SUPPORT_DIR")
    if given:
        return Path(given).expanduser().resolve()
    return _platform_support_dir()


def _platform_support_dir() -> Path:
    """The platform's place for Notifier's support folder, whatever ``NOTIFIER_SUPPORT_DIR`` says."""
    home = Path.home()
    if sys.platform == "darwin":
        return home / "Library" / "Application Support" / "Notifier"
    if sys.platform == "win32":
        appdata = os.environ.get("APPDATA")
        return (Path(appdata) if appdata else home / "AppData" / "Roaming") / "Notifier"
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else home / ".local" / "share") / "notifier"


def _read_text(file: Path) -> Optional[str]:
    try:
        return file.read_text(encoding="utf-8").strip()
    except (OSError, UnicodeDecodeError):
        return None


def _read_port(folder: Path) -> Optional[int]:
    """The ``port`` file when it holds digits only (and a real port number).

    Without one, :data:`DEFAULT_PORT` for the platform's own folder only; ``None`` for a folder of its own: its
    Notifier is stopped, and whatever answers on the default port is another one.
    """
    text = _read_text(folder / "port")
    if text and re.fullmatch(r"[0-9]+", text) and 0 < int(text) < 65536:
        return int(text)
    return DEFAULT_PORT if folder.expanduser().resolve() == _platform_support_dir().resolve() else None


def _without_none(fields: Mapping[str, Any]) -> JSON:
    return {key: value for key, value in fields.items() if value is not None}


class Notifier:
    """A connection to the Notifier on this computer.

    :param port: the port to use; default: read from the support folder's ``port`` file once it is there (48617
        when it is missing or not a number and the folder is the platform's own; ``None`` for a folder of its own
        without one, read again on the next call).
    :param token: the bearer token; default: read from the support folder's ``token`` file on every call, so a
        long-lived object keeps working when the token file changes.
    :param timeout: seconds to wait for each answer (default 10).
    :param support_dir: the support folder; default: ``NOTIFIER_SUPPORT_DIR``, else the platform's default.
    """

    def __init__(
        self,
        port: Optional[int] = None,
        token: Optional[str] = None,
        timeout: float = DEFAULT_TIMEOUT,
        support_dir: Union[str, "os.PathLike[str]", None] = None,
    ) -> None:
        self.support_dir = Path(support_dir).expanduser() if support_dir is not None else default_support_dir()
        self.port: Optional[int] = int(port) if port is not None else _read_port(self.support_dir)
        self.timeout = timeout
        self._token = token

    @property
    def base_url(self) -> Optional[str]:
        """``http://127.0.0.1:<port>``; None while the port is not known."""
        return None if self.port is None else f"http://127.0.0.1:{self.port}"

    def __repr__(self) -> str:
        return f"Notifier(base_url={self.base_url!r}, support_dir={str(self.support_dir)!r})"

    # -- routes -------------------------------------------------------------------------------------------------

    def is_available(self) -> bool:
        """True when Notifier answers ``GET /v1/health``; False when it answers an error or nothing answers."""
        try:
            self.health()
            return True
        except NotifierError:  # NotifierUnavailable included
            return False

    def health(self) -> JSON:
        """``GET /v1/health``: ``{"ok": True, "version": ..., "pid": ...}``. Needs no token."""
        return self._request("GET", "/v1/health", auth=False)

    def notify(self, app: str, title: Optional[str], **fields: Any) -> str:
        """Shows a notification and returns its id (the ``id`` you gave, or the one Notifier made).

        Keyword arguments are notification fields (``body``, ``subtitle``, ``image``, ``url``, ``template``,
        ``buttons``, ``persistent``, ...); any other name becomes a template field (it lands in ``metadata``).
        ``None`` values are left out, so ``title=None`` lets the template supply the title.
        """
        reply = self._request("POST", "/v1/notify", body=_without_none({**fields, "app": app, "title": title}))
        return str(reply["id"])

    def register(self, app: str, **fields: Any) -> None:
        """Registers or updates an app: ``appName``, ``callbackURL``, ``defaults``, ``allowCommands``."""
        self._request("POST", "/v1/register", body=_without_none({**fields, "app": app}))

    def dismiss(self, app: str, id: str) -> None:  # noqa: A002 - the API's name for it
        """Closes one banner. An id that is not on screen is not an error."""
        self._request("POST", "/v1/dismiss", body={"app": app, "id": id})

    def dismiss_all(self, app: Optional[str] = None) -> None:
        """Closes every banner of ``app``; with no app, every banner of every app. Records stay in History."""
        self._request("POST", "/v1/dismissAll", body=_without_none({"app": app}))

    def history(self, app: Optional[str] = None, limit: int = DEFAULT_HISTORY_LIMIT) -> List[JSON]:
        """The newest History records of ``app`` (every app when None), newest first."""
        reply = self._request("GET", "/v1/history", query=_without_none({"app": app, "limit": limit}))
        return list(reply["items"])

    def clear_history(self, app: str) -> None:
        """Deletes ``app``'s History records.

        ``app`` must not be empty: Notifier reads an empty app as "every app", and one empty variable should not
        wipe everybody's History. (To clear it all, send ``DELETE /v1/history`` yourself.)
        """
        if not app:
            raise ValueError("clear_history needs an app id")
        self._request("DELETE", "/v1/history", query={"app": app})

    def apps(self) -> List[JSON]:
        """The registered apps: dicts with ``app`` and, when set, ``appName``, ``defaults``, ..."""
        return list(self._request("GET", "/v1/apps")["apps"])

    def replies(
        self,
        app: Optional[str] = None,
        since: Union[datetime, float, str, None] = None,
        consume: bool = False,
    ) -> List[JSON]:
        """``GET /v1/replies``: what the person typed into reply fields, oldest first.

        Each reply is a dict: ``notificationId``, ``app``, ``title`` (when the notification had one), ``text``,
        ``repliedAt``. ``app``: only this app's queue (default every app's). ``since``: only replies after this
        moment (a ``datetime``, epoch seconds, or an ISO 8601 text; a naive ``datetime`` is local time).
        ``consume=True`` removes the replies returned from the queue (they stay on their History records).
        """
        when = since.isoformat() if isinstance(since, datetime) else since
        query = _without_none({"app": app, "since": when, "consume": "true" if consume else None})
        return list(self._request("GET", "/v1/replies", query=query)["replies"])

    def wait_for_reply(
        self,
        id: str,  # noqa: A002 - the API's name for it
        app: Optional[str] = None,
        timeout: float = DEFAULT_REPLY_WAIT,
        consume: bool = True,
    ) -> Optional[JSON]:
        """``GET /v1/replies/wait``: waits until the person replies to notification ``id``; returns the reply (a dict
        as :meth:`replies` gives), or None when ``timeout`` seconds (1 to 300) pass first.

        A reply already waiting is returned at once; with ``app``, so is one already on the History record. The
        reply returned is removed from the queue unless ``consume=False``. The socket waits ``timeout`` plus a
        margin, whatever the object's own timeout.
        """
        query = _without_none({"id": id, "app": app, "timeout": timeout, "consume": None if consume else "false"})
        answer = self._request("GET", "/v1/replies/wait", query=query, timeout=max(self.timeout, timeout + WAIT_MARGIN))
        return answer["reply"] if answer.get("replied") else None

    def snooze(self, app: str, id: str, minutes: float) -> str:  # noqa: A002 - the API's name for it
        """``POST /v1/snooze``: hides the banner and brings it back after ``minutes`` (more than 0, at most 43200).
        Returns when it comes back, as ISO 8601 text."""
        return str(self._request("POST", "/v1/snooze", body={"app": app, "id": id, "minutes": minutes})["until"])

    def unsnooze(self, app: str, id: str) -> None:  # noqa: A002 - the API's name for it
        """``POST /v1/unsnooze``: brings a snoozed banner back now (quietly). Not snoozed: nothing happens."""
        self._request("POST", "/v1/unsnooze", body={"app": app, "id": id})

    # -- transport ----------------------------------------------------------------------------------------------

    def _current_token(self) -> Optional[str]:
        return self._token if self._token is not None else _read_text(self.support_dir / "token")

    def _request(
        self,
        method: str,
        route: str,
        *,
        body: Optional[JSON] = None,
        query: Optional[Mapping[str, Any]] = None,
        auth: bool = True,
        timeout: Optional[float] = None,
    ) -> JSON:
        seconds = self.timeout if timeout is None else timeout
        if self.port is None:
            self.port = _read_port(self.support_dir)  # the instance may have started since
        if self.port is None:
            raise NotifierUnavailable(f"Notifier is not running: there is no port file in {self.support_dir}.")
        url = f"http://127.0.0.1:{self.port}{route}"
        if query:
            url += "?" + urllib.parse.urlencode(query)
        headers = {"Accept": "application/json"}
        data = None
        if body is not None:
            data = json.dumps(body).encode("utf-8")
            headers["Content-Type"] = "application/json"
        token = self._current_token() if auth else None
        if token:
            headers["Authorization"] = f"Bearer {token}"
        request = urllib.request.Request(url, data=data, headers=headers, method=method)
        try:
            with _OPENER.open(request, timeout=seconds) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            raw = _read_error_body(error)
            raise NotifierError(error.code, _error_message(raw, error.reason)) from None
        except (socket.timeout, TimeoutError):
            raise NotifierUnavailable(f"Notifier did not answer within {seconds:g} seconds.") from None
        except urllib.error.URLError as error:
            if isinstance(error.reason, (socket.timeout, TimeoutError)):
                raise NotifierUnavailable(f"Notifier did not answer within {seconds:g} seconds.") from None
            raise NotifierUnavailable() from error
        except (OSError, http.client.HTTPException) as error:  # refused, reset, or cut off before the answer ended
            raise NotifierUnavailable() from error
        try:
            reply = json.loads(raw.decode("utf-8")) if raw else {}
        except (UnicodeDecodeError, ValueError):
            raise NotifierError(status, f"Notifier answered something that is not JSON: {raw[:200]!r}") from None
        if not isinstance(reply, dict):
            raise NotifierError(status, f"Notifier answered something that is not a JSON object: {raw[:200]!r}")
        return reply


def _read_error_body(error: urllib.error.HTTPError) -> bytes:
    try:
        return error.read()
    except (OSError, http.client.HTTPException):
        return b""
    finally:
        error.close()


def _error_message(raw: bytes, reason: Any) -> str:
    """The reply's ``error`` text; else the raw reply; else the status's reason phrase."""
    text = raw.decode("utf-8", errors="replace").strip()
    try:
        parsed = json.loads(text)
    except ValueError:
        parsed = None
    if isinstance(parsed, dict) and isinstance(parsed.get("error"), str):
        return parsed["error"]
    return text or str(reason or "error")


def _main(argv: List[str]) -> int:
    if not 1 <= len(argv) <= 2:
        print('usage: python3 notifier.py "Title" ["Body"]', file=sys.stderr)
        return 1
    try:
        notification_id = Notifier().notify("notifier-python", argv[0], body=argv[1] if len(argv) > 1 else None)
    except NotifierUnavailable as error:
        print(error.message, file=sys.stderr)
        return 2
    except NotifierError as error:
        print(f"Notifier refused the notification: {error}", file=sys.stderr)
        return 1
    print(notification_id)
    return 0


if __name__ == "__main__":
    sys.exit(_main(sys.argv[1:]))
