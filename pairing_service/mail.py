"""Sending mail (league letters) through the SMTP server of ``SMTP_URL``, when one is set.

The standard library's smtplib and email do all of it; this only reads the URL:
``smtp://host[:port]`` (STARTTLS when the server offers it), ``smtps://host[:port]``
(TLS from the start), with ``user:password@`` when the server wants a login.
"""

from __future__ import annotations

import smtplib
from collections.abc import Sequence
from dataclasses import dataclass
from email.message import EmailMessage
from urllib.parse import unquote, urlsplit

TIMEOUT_SECONDS = 20


@dataclass(frozen=True)
class Mail:
    to: str
    subject: str
    body: str


def send(url: str, sender: str, mails: Sequence[Mail]) -> tuple[int, list[str]]:
    """Send every mail over one connection: (how many were accepted, addresses refused).

    Raises OSError / smtplib.SMTPException when the server cannot be reached at all.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError("SMTP_URL must look like smtp://host:port or smtps://host:port")
    secure = parts.scheme == "smtps"
    port = parts.port or (465 if secure else 25)
    client_type = smtplib.SMTP_SSL if secure else smtplib.SMTP
    refused: list[str] = []
    sent = 0
    with client_type(parts.hostname, port, timeout=TIMEOUT_SECONDS) as client:
        client.ehlo()
        if not secure and client.has_extn("starttls"):
            client.starttls()
            client.ehlo()
        if parts.username:
            client.login(unquote(parts.username), unquote(parts.password or ""))
        for mail in mails:
            message = EmailMessage()
            message["From"] = sender
            message["To"] = mail.to
            message["Subject"] = mail.subject
            message.set_content(mail.body)
            try:
                client.send_message(message)
            except smtplib.SMTPRecipientsRefused:
                refused.append(mail.to)
            else:
                sent += 1
    return sent, refused
