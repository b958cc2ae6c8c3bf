"""Sending mail (league letters) through the SMTP server of ``SMTP_URL``, when one is set.

The standard library's smtplib and email do all of it; this only reads the URL:
``smtp://host[:port]`` (STARTTLS when the server offers it), ``smtps://host[:port]``
(TLS from the start), with ``user:password@`` when the server wants a login.

Each message carries ``Date`` and ``Message-ID`` (RFC 5322 asks for both, and mail
filters mark letters without them), and display names: ``To: Sven Berg
<sven@club.example>``, ``From: AGR Meeple League <…>`` unless the sender names itself.
"""

from __future__ import annotations

import smtplib
from collections.abc import Sequence
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import formatdate, make_msgid, parseaddr
from typing import Literal
from urllib.parse import unquote, urlsplit

TIMEOUT_SECONDS = 20

Reason = Literal["no_address", "smtp_not_configured", "refused", "unreachable"]


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    body: str
    to_name: str | None = None


@dataclass(frozen=True)
class NotSent:
    """Why one mail was not sent: ``reason`` for a program, ``detail`` for a person."""

    reason: Reason
    detail: str


def address(email: str, name: str | None = None) -> Address:
    """``name <email>`` as a header value (the name quoted or encoded as needed)."""
    return Address(display_name=name or "", addr_spec=email)


def refused(code: int, text: bytes | str) -> NotSent:
    said = text.decode(errors="replace") if isinstance(text, bytes) else text
    return NotSent("refused", f"the mail server refused it: {code} {said}")


def message(sender: Address, mail: Mail) -> EmailMessage:
    out = EmailMessage()
    out["From"] = sender
    out["To"] = address(mail.to, mail.to_name)
    out["Subject"] = mail.subject
    out["Date"] = formatdate(usegmt=True)
    out["Message-ID"] = make_msgid(domain=sender.domain or None)
    out.set_content(mail.body)
    return out


def send(
    url: str, sender: str, mails: Sequence[Mail], sender_name: str | None = None
) -> list[NotSent | None]:
    """Send every mail over one connection: for each, None once the server took it, or
    why not (the server refused it, or the connection was lost before it).

    ``sender`` is an address, or ``Name <address>``; without a name, ``sender_name``.
    Raises OSError / smtplib.SMTPException when the server cannot be reached at all.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError("SMTP_URL must look like smtp://host:port or smtps://host:port")
    secure = parts.scheme == "smtps"
    port = parts.port or (465 if secure else 25)
    client_type = smtplib.SMTP_SSL if secure else smtplib.SMTP
    name, email = parseaddr(sender)
    from_ = address(email, name or sender_name)
    outcomes: list[NotSent | None] = []
    with client_type(parts.hostname, port, timeout=TIMEOUT_SECONDS) as client:
        client.ehlo()
        if not secure and client.has_extn("starttls"):
            client.starttls()
            client.ehlo()
        if parts.username:
            client.login(unquote(parts.username), unquote(parts.password or ""))
        for mail in mails:
            try:
                client.send_message(message(from_, mail))
            except smtplib.SMTPRecipientsRefused as error:
                outcomes.append(refused(*next(iter(error.recipients.values()))))
            except smtplib.SMTPResponseException as error:
                outcomes.append(refused(error.smtp_code, error.smtp_error))
            except (OSError, smtplib.SMTPServerDisconnected) as error:
                lost = NotSent("unreachable", f"the connection was lost: {type(error).__name__}")
                outcomes += [lost] * (len(mails) - len(outcomes))
                break
            else:
                outcomes.append(None)
    return outcomes
