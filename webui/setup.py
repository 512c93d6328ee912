"""A game's setup as chosen on the setup page (or on the command line): edition, players, difficulty, fuse
cards, roles, names, and who deals: the rules engine (a seeded deal) or the table (the camera or the referee
reports the real deal)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any

from rules import actions as A
from rules.config import GameConfig
from rules.errors import RulesError
from rules.game import CHANCE, Game
from webui.errors import SetupError

DEALS = ("engine", "table", "log")


@dataclass(frozen=True)
class GameSetup:
    config: GameConfig
    names: tuple[str, ...] = ()
    deal: str = "engine"
    """``engine`` (the rules engine deals), ``table`` (the deal is reported) or ``log`` (a recorded game)."""
    roles: tuple[tuple[int, str], ...] = ()
    """Countdown: (player index, role card id) chosen by the table; other players' roles are dealt."""
    seed: int = 1
    feed: str = "manual"
    extra: dict[str, Any] = field(default_factory=dict)

    def player_names(self) -> list[str]:
        return [self.names[i] if i < len(self.names) and self.names[i] else f"p{i + 1}"
                for i in range(self.config.players)]

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["config"]["variants"] = sorted(self.config.variants)
        data["config"]["levels"] = [list(level) for level in self.config.levels]
        data["names"], data["roles"] = list(self.names), [list(r) for r in self.roles]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSetup:
        config = dict(data["config"])
        config["variants"] = frozenset(config.get("variants", ()))
        config["levels"] = tuple(tuple(level) for level in config.get("levels", ()))
        return cls(GameConfig(**config), tuple(data.get("names", ())), data.get("deal", "engine"),
                   tuple((int(p), str(r)) for p, r in data.get("roles", ())), int(data.get("seed", 1)),
                   data.get("feed", "manual"), dict(data.get("extra", {})))


def _int(form: Mapping[str, Any], key: str, default: int | None) -> int | None:
    raw = form.get(key)
    if raw is None or str(raw).strip() == "":
        return default
    try:
        return int(str(raw).strip())
    except ValueError:
        raise SetupError(f"{key} must be a whole number, not {raw!r}") from None


def config_from(form: Mapping[str, Any], base: GameConfig | None = None) -> GameConfig:
    """A ``GameConfig`` from form or JSON fields (``edition``, ``players``, ``difficulty``, ``fuse_cards``, and
    ``limit_seconds`` for a recorded game played with a shortened countdown)."""
    base = base or GameConfig()
    edition = str(form.get("edition") or base.edition).strip().lower()
    players = _int(form, "players", base.players)
    difficulty = str(form.get("difficulty") or base.difficulty).strip().lower()
    fuse_cards = _int(form, "fuse_cards", None)
    if edition == "fuse":
        fuse_cards = None
    limit = _int(form, "limit_seconds", base.limit_seconds)
    if not limit or limit < 1:
        raise SetupError(f"limit_seconds must be a positive number of seconds, not {limit}")
    try:
        return GameConfig(edition, int(players or 0), difficulty, fuse_cards, limit_seconds=int(limit or 0))
    except RulesError as exc:
        raise SetupError(str(exc)) from None


def setup_from(form: Mapping[str, Any], feed: str = "manual") -> GameSetup:
    """Read and check the setup page's fields; raises ``SetupError`` quoting the bad field."""
    config = config_from(form)
    names_field = form.get("names") or ""
    names = names_field if isinstance(names_field, (list, tuple)) else str(names_field).split(",")
    names = tuple(str(n).strip() for n in names if str(n).strip())
    if len(names) > config.players:
        raise SetupError(f"{len(names)} names given for {config.players} players: {', '.join(names)!r}")
    deal = str(form.get("deal") or "engine").strip()
    if deal not in ("engine", "table"):
        raise SetupError(f"deal must be 'engine' or 'table', not {deal!r}")
    seed = _int(form, "seed", random.randrange(1, 1_000_000))
    roles = _roles(form, config)
    return GameSetup(config, names, deal, roles, int(seed or 1), feed)


def _roles(form: Mapping[str, Any], config: GameConfig) -> tuple[tuple[int, str], ...]:
    chosen: list[tuple[int, str]] = []
    known = {c.id: c for c in Game(config).of_kind("role")} if config.uses_roles else {}
    for p in range(config.players):
        role = str(form.get(f"role_p{p + 1}") or "").strip()
        if not role or role == "deal":
            continue
        if not config.uses_roles:
            raise SetupError(f"role {role!r} for p{p + 1}: only Countdown games of 1-4 players use roles")
        if role not in known:
            raise SetupError(f"unknown role card {role!r} for p{p + 1}: expected one of {', '.join(sorted(known))}")
        if role in (r for _, r in chosen):
            raise SetupError(f"role {role!r} is chosen twice")
        chosen.append((p, role))
    return tuple(chosen)


def engine_deal(setup: GameSetup) -> list[str]:
    """The setup's deal as action texts: chance drawn from the seed, chosen roles given to their players."""
    rng = random.Random(setup.seed)
    state = Game(setup.config).new_initial_state()
    roles = dict(setup.roles)
    actions: list[str] = []
    while state.current_player() == CHANCE and state.phase != "roll":
        action = state.sample_chance(rng)
        if isinstance(action, A.DealRole) and action.player in roles:
            action = A.DealRole(action.player, roles[action.player])
        elif isinstance(action, A.DealRole):
            free = [r for r in (a.card for a, _ in state.chance_outcomes()) if r not in roles.values()]
            action = A.DealRole(action.player, rng.choice(free))
        state.apply_action(action)
        actions.append(str(action))
    return actions
