"""A local SMTP server (aiosmtpd) that keeps what it receives: never a real one. A
mailbox whose name starts with ``refused`` does not exist there (550)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from email.message import Message as EmailMessage

from tests.support.servers import free_port


@contextmanager
def local_smtp() -> Iterator[tuple[str, list[EmailMessage]]]:
    """(the server's ``smtp://`` URL, the messages it has received so far)."""
    from aiosmtpd.controller import Controller
    from aiosmtpd.handlers import Message

    received: list[EmailMessage] = []

    class Keep(Message):  # type: ignore[misc]
        async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
            if address.startswith("refused"):
                return "550 5.1.1 no such mailbox here"
            envelope.rcpt_tos.append(address)
            return "250 OK"

        def handle_message(self, message: EmailMessage) -> None:
            received.append(message)

    controller = Controller(Keep(), hostname="127.0.0.1", port=free_port())
    controller.start()
    try:
        yield f"smtp://127.0.0.1:{controller.port}", received
    finally:
        controller.stop()


def letter_to(received: list[EmailMessage], address: str) -> str:
    """The text of the letter sent to ``address`` (the last one)."""
    mine = [m for m in received if f"<{address}>" in m["To"]]
    assert mine, f"no letter to {address}: {[m['To'] for m in received]}"
    payload = mine[-1].get_payload(decode=True)
    assert isinstance(payload, bytes)
    return payload.decode()
