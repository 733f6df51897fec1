"""Players: a lasting identity behind the seats a person takes.

A player is a public id and display name, and a secret key that only the player's browsers hold
(the server keeps its SHA-256, as it does seat tokens). Every seat a player takes gets a seat
token derived from the key (HMAC-SHA256 of the table code and seat), so any device holding the
key can get the same token again and take its seat back, while the database alone (which holds
only hashes) cannot act for anyone.

A second device gets the same key in one of two ways, and the first keeps working:

- a one-time code (8 letters from the unambiguous alphabet of table codes, valid
  :data:`CODE_SECONDS`, single use): the key is stored sealed by a key derived from the code
  with argon2id, so a copy of the database taken during those minutes does not give the key
  without guessing the code at argon2's cost;
- a password (optional): argon2id hashes it for checking, and seals the key under another
  argon2id derivation of it, so only the right password unseals the key.

Every argon2 call here is slow on purpose; the routes run them through
:mod:`dudo.server.hashing`, never on the event loop.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import secrets
import time

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from argon2.low_level import Type, hash_secret_raw

from dudo.server.errors import ErrorCode as E
from dudo.server.errors import Refused
from dudo.server.storage import Password, StoredPlayer, token_hash
from dudo.server.tables import CODE_ALPHABET

#: One-time codes: how many letters, and for how many seconds one is good.
CODE_LENGTH = 8
CODE_SECONDS = 300
MIN_PASSWORD, MAX_PASSWORD = 8, 128

# argon2id with the memory and passes of RFC 9106's second choice (64 MiB, 3 passes), in one
# lane: the library's default of 4 lanes runs 4 threads per hash, taking every core of a small
# server for each sign-in. Hashes carry their parameters, so older ones (4 lanes) still verify,
# and a sign-in with one stores the password again with these.
_HASHER = PasswordHasher(time_cost=3, memory_cost=64 * 1024, parallelism=1)
#: The argon2id cost of the keys that seal a player key (by a code or a password).
_SEAL_TIME, _SEAL_MEMORY = 2, 19 * 1024
#: A fixed salt for codes: a code must be found again by its hash alone.
_CODE_SALT = b"dudo one-time code"


def new_key() -> str:
    return secrets.token_urlsafe(32)


def new_player_id() -> str:
    return secrets.token_urlsafe(9)


def seat_token(key: str, code: str, seat: int) -> str:
    """The seat token of a player's seat: the same from every device that holds the key."""
    mac = hmac.new(key.encode(), f"dudo seat {code} {seat}".encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac[:24]).decode()


def player_key(authorization: str | None) -> str | None:
    """The key of an ``Authorization: Player <key>`` header (None: no such header)."""
    if not authorization:
        return None
    scheme, _, key = authorization.partition(" ")
    return key.strip() if scheme.lower() == "player" and key.strip() else None


def key_needed() -> Refused:
    return Refused(
        E.PLAYER_KEY_NEEDED,
        "a valid player key is needed (Authorization: Player <key>)",
        401,
    )


def key_hash(key: str) -> str:
    return token_hash(key)


# ------------------------------------------------------------------------- one-time codes


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def clean_code(text: object) -> str | None:
    """A code as typed (spaces, dashes and lower case allowed); None: it cannot be one."""
    if not isinstance(text, str):
        return None
    code = "".join(ch for ch in text.upper() if ch not in " -")
    if len(code) != CODE_LENGTH or any(ch not in CODE_ALPHABET for ch in code):
        return None
    return code


def _derive(secret: str, salt: bytes) -> bytes:
    return hash_secret_raw(
        secret.encode(),
        salt,
        time_cost=_SEAL_TIME,
        memory_cost=_SEAL_MEMORY,
        parallelism=1,
        hash_len=64,
        type=Type.ID,
    )


def code_secrets(code: str) -> tuple[str, bytes]:
    """(the hash a code is stored under, the key that seals the player key under it)."""
    derived = _derive(code, _CODE_SALT)
    return derived[:32].hex(), derived[32:]


def seal(key: str, sealer: bytes) -> str:
    data = key.encode()
    stream = _stream(sealer, len(data))
    mac = hmac.new(sealer, data, hashlib.sha256).hexdigest()[:32]
    return bytes(a ^ b for a, b in zip(data, stream, strict=True)).hex() + ":" + mac


def unseal(sealed: str, sealer: bytes) -> str | None:
    """The sealed key (None: the sealer is not the right one)."""
    body, _, mac = sealed.rpartition(":")
    try:
        cipher = bytes.fromhex(body)
    except ValueError:
        return None
    data = bytes(a ^ b for a, b in zip(cipher, _stream(sealer, len(cipher)), strict=True))
    good = hmac.new(sealer, data, hashlib.sha256).hexdigest()[:32]
    return data.decode() if hmac.compare_digest(good, mac) else None


def _stream(sealer: bytes, length: int) -> bytes:
    out = b""
    block = 0
    while len(out) < length:
        out += hmac.new(sealer, f"stream {block}".encode(), hashlib.sha256).digest()
        block += 1
    return out[:length]


# ------------------------------------------------------------------------------ passwords


def check_password(password: object) -> str:
    if not isinstance(password, str) or len(password) < MIN_PASSWORD:
        raise Refused(
            E.PASSWORD_TOO_SHORT,
            f"password: at least {MIN_PASSWORD} characters",
            400,
            count=MIN_PASSWORD,
        )
    if len(password) > MAX_PASSWORD:
        raise Refused(
            E.PASSWORD_TOO_LONG,
            f"password: at most {MAX_PASSWORD} characters",
            400,
            count=MAX_PASSWORD,
        )
    return password


def password_secrets(password: str, key: str) -> tuple[str, str]:
    """(the argon2id hash of the password, the key sealed by it)."""
    salt = secrets.token_bytes(16)
    sealed = salt.hex() + "/" + seal(key, _derive(password, salt)[32:])
    return _HASHER.hash(password), sealed


@functools.cache
def _dummy_hash() -> str:
    return _HASHER.hash(secrets.token_urlsafe(16))


def warm_up() -> None:
    """Make the stand-in hash (at start), so the first unknown name costs no more than others."""
    _dummy_hash()


def password_matches(password: str, password_hash: str | None) -> bool:
    """Whether ``password`` is the one hashed. With no hash (an unknown name) a hash of the
    same cost is checked anyway, so how long the answer takes tells nothing."""
    try:
        return _HASHER.verify(password_hash or _dummy_hash(), password) and bool(password_hash)
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(password_hash: str) -> bool:
    return _HASHER.check_needs_rehash(password_hash)


def rehash(password: str) -> str:
    return _HASHER.hash(password)


def key_by_password(password: str, found: Password | None) -> str | None:
    """The player key, if ``password`` is the one of ``found`` (None: no player has the name,
    which costs the same). None: it is not."""
    if not password_matches(password, None if found is None else found.password_hash):
        return None
    assert found is not None
    salt, _, rest = found.key_sealed.partition("/")
    try:
        return unseal(rest, _derive(password, bytes.fromhex(salt))[32:])
    except ValueError:
        return None


def profile(player: StoredPlayer) -> dict[str, object]:
    """What the player sees of themselves."""
    return {
        "id": player.id,
        "name": player.name,
        "created": player.created,
        "password": player.has_password,
    }


def expires_at() -> float:
    return time.time() + CODE_SECONDS
