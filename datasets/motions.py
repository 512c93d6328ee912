"""What each action looks like at the table: ``plan`` times it (before it is applied), ``record`` writes its
hands, dice and card glides into the ``TableModel``'s tracks (after), ``settle`` does what follows by itself
(unused dice back to the bag, the bag passed to the next leader, role cards turned over, set-aside cards back
into the deck), and ``tidy`` puts a revealed fuse card on the discard pile once its effect is over.
"""

from __future__ import annotations

from datasets.timeline import EFFECTS, HAND_IN, LOW, Plan, TableModel
from datasets.tracks import CardPose, DiePose
from rules import actions as A
from rules.dice import Die
from rules.game import State

FUSE_ON_SHOW = 2.5
"""Seconds a revealed fuse card stays on show at least."""
BAG_HEIGHT = 45.0
UNUSED_SHOWN = 1.5
"""Seconds an unused die rolled again lies on the table, its new face in view, before it is swept into the bag."""
SET_ASIDE_STEP = 48.0
"""mm between cards set aside at the deal (the starting-hand rule): fanned so that each stays in sight (over half
of it) until they are shuffled back, as a dealer lays them out, not stacked out of view."""


def deck_count(state: State) -> int:
    """Face-down cards in the deck (during the deal: the whole deck the hands come from)."""
    deals = sum(1 for t in state.tasks if t[0] == "deal")
    if deals or any(t[0] == "setup-deck" for t in state.tasks):
        return state.config.deck_size + deals
    return sum(s.count for s in state.sources.values()) + state.fuse_source.count


def plan(model: TableModel, state: State, action: A.Action, start: float, illegal: str = "") -> Plan:
    """Timing of ``action`` from ``start`` on (later if the acting player's hand is still busy)."""
    d = model.dur
    facts: dict = {}
    actor: int | None = None
    if isinstance(action, (A.Place, A.Discard)):
        index = state.roll.index(action.die)
        facts = {"index": index, "die": model.loose[index]}
        actor = model.owner(state, action.card) if isinstance(action, A.Place) else state.leader
    elif isinstance(action, (A.Change, A.Flip)):
        facts = {"index": action.index, "die": model.loose[action.index]}
        actor = state.leader
    elif isinstance(action, A.Roll):
        task = state.tasks[0]
        facts = {"reroll": task[1] if task[0] == "reroll" else None}
        actor = state.leader
    elif isinstance(action, A.RollUnused):
        actor, facts = state.leader, {"die": model.pending[0]}
    elif isinstance(action, A.Return):
        actor, facts = state.tasks[0][1], {"die": model.chips[(action.card, action.chip)]}
    elif isinstance(action, (A.Defuse, A.Clear)):
        owner = model.owner(state, action.card)
        actor = owner if isinstance(action, A.Defuse) else None
        facts = {"owner": owner, "dice": [i for (c, _), i in model.chips.items() if c == action.card]}
    elif isinstance(action, A.ExtraRoll):
        actor = action.player
    elif isinstance(action, A.Reveal):
        facts = {"where": state.tasks[0][1], "kind": state.game.card(action.card).kind}
    if actor is not None:
        start = max(start, model.hand_free[actor])
    t1 = start + HAND_IN
    if isinstance(action, (A.Place, A.Discard, A.Roll, A.RollUnused)):
        at = t1 + d(0.5)
    elif isinstance(action, A.Return):
        at = t1 + 0.05
    elif isinstance(action, A.Defuse):
        at = t1 + d(1.3 if action.take else 0.8)
    elif isinstance(action, (A.ExtraRoll, A.Change, A.Flip)):
        at = t1 + d(0.35)
    elif isinstance(action, (A.Reveal, A.DrawSpark, A.Deal, A.DealRole)):
        at = start + d(0.6)
    elif isinstance(action, (A.Name, A.Ready)):
        at = start + d(1.0)
    else:
        at = start + d(0.3)
    facts["t1"] = t1
    return Plan(action, start, round(at, 3), actor, facts, illegal)  # the log keeps milliseconds


def record(model: TableModel, p: Plan, state: State) -> None:
    """Write the motions of applied action ``p`` (``state`` is the game after it)."""
    action = p.action
    p.settled = p.end = p.at
    handler = _HANDLERS.get(type(action))
    if handler is not None:
        handler(model, p, state)
    p.end = max(p.end, p.settled)


def _place(model: TableModel, p: Plan, state: State) -> None:
    action: A.Place = p.action  # type: ignore[assignment]
    die_id, t1 = p.facts["die"], p.facts["t1"]
    before: DiePose = model.tracks[f"die:{die_id}"].last()
    x, y = before.x, before.y
    cx, cy = model.chip_xy(action.card, action.chip)
    level = model.level(action.card, action.chip)
    height = LOW + level * model.size
    p.settled = model.trip(p.actor, [(t1, x, y, LOW), (p.at, cx, cy, height)])  # type: ignore[arg-type]
    track = model.tracks[f"die:{die_id}"]
    track.add(t1, None)
    rng = model.rng
    on = DiePose(before.die, rng.uniform(-0.8, 0.8), rng.uniform(-0.8, 0.8), rng.gauss(0, 5), before.turn,
                 action.card, action.chip, level)
    track.add(p.at, on)
    if p.illegal:  # stays a while, then the player takes it back to where it was
        back = p.at + p.facts["hold"]
        model.trip(p.actor, [(back, cx, cy, height), (back + 0.5, x, y, LOW)])  # type: ignore[arg-type]
        track.add(back, None)
        track.add(back + 0.5, before)
        p.end = back + 0.5
        return
    model.loose.pop(p.facts["index"])
    model.chips[(action.card, action.chip)] = die_id


def _discard(model: TableModel, p: Plan, state: State) -> None:
    die_id, t1 = p.facts["die"], p.facts["t1"]
    x, y = model.die_xy(die_id)
    bx, by, _ = model.tmap.bag(state.leader)
    p.settled = model.trip(p.actor, [(t1, x, y, LOW), (p.at, bx, by, BAG_HEIGHT)])  # type: ignore[arg-type]
    model.loose.pop(p.facts["index"])
    model.to_bag(die_id, t1)


def _roll(model: TableModel, p: Plan, state: State) -> None:
    action: A.Roll = p.action  # type: ignore[assignment]
    t1, indices = p.facts["t1"], p.facts["reroll"]
    leader = p.actor
    assert leader is not None
    if indices is None:
        ids = [model.take_from_bag(d.colours, t1) for d in action.dice]
        centre = model.tmap.roll_spot(leader)
        spots = model.scatter(centre, len(ids), model.pending + list(model.six.values()))
        model.loose = ids
    else:
        ids = [model.loose[i] for i in indices]
        xs = [model.die_xy(i) for i in ids]
        centre = (sum(x for x, _ in xs) / len(xs), sum(y for _, y in xs) / len(xs))
        spots = model.scatter(centre, len(ids), [i for i in model.loose if i not in ids] + model.pending)
        for i in ids:
            model.tracks[f"die:{i}"].add(t1, None)
    p.settled = model.trip(leader, [(t1, centre[0], centre[1], 40.0)], pose=1)
    for die_id, die, (x, y) in zip(ids, action.dice, spots):
        model.put_loose(die_id, die, x, y, t1 + 0.25)


def _roll_unused(model: TableModel, p: Plan, state: State) -> None:
    action: A.RollUnused = p.action  # type: ignore[assignment]
    die_id, t1 = p.facts["die"], p.facts["t1"]
    x, y = model.die_xy(die_id)
    p.settled = model.trip(p.actor, [(t1, x, y, LOW)])  # type: ignore[arg-type]
    model.tracks[f"die:{die_id}"].add(t1, None)
    # a die rolled lands elsewhere: never where it was picked up, or the table would show no roll at all
    (nx, ny), = model.scatter(model.tmap.roll_spot(state.leader), 1, [i for i in model.pending if i != die_id],
                              avoid=((x, y),))
    model.put_loose(die_id, action.die, nx, ny, p.at)
    model.rolled_again[die_id] = p.at


def _return(model: TableModel, p: Plan, state: State) -> None:
    action: A.Return = p.action  # type: ignore[assignment]
    die_id, t1 = p.facts["die"], p.facts["t1"]
    cx, cy = model.chip_xy(action.card, action.chip)
    bx, by, _ = model.tmap.bag(state.leader)
    p.settled = model.trip(p.actor, [(t1, cx, cy, LOW), (t1 + 0.5, bx, by, BAG_HEIGHT)])  # type: ignore[arg-type]
    del model.chips[(action.card, action.chip)]
    model.to_bag(die_id, p.at)


def _clear_dice(model: TableModel, card: str, dice: list[int], t: float) -> None:
    for die_id in dice:
        model.to_bag(die_id, t)
    for key in [k for k in model.chips if k[0] == card]:
        del model.chips[key]


def _defuse(model: TableModel, p: Plan, state: State) -> None:
    action: A.Defuse = p.action  # type: ignore[assignment]
    owner, t1 = p.facts["owner"], p.facts["t1"]
    pose = model.card_pose(action.card)
    bx, by, _ = model.tmap.bag(state.leader)
    p.settled = model.trip(owner, [(t1, pose.x, pose.y, LOW), (t1 + 0.5, bx, by, BAG_HEIGHT)])
    _clear_dice(model, action.card, p.facts["dice"], t1)
    slot = model.place.pop(action.card)[2]
    arrive = t1 + 0.8
    if state.game.card(action.card).kind == "spark":
        model.glide(action.card, t1 + 0.1, arrive, model.tmap.spark_discard)
        model.glide(action.card, arrive, arrive, None)
        model.pile("spark-discard", arrive, tuple(state.spark_discard))
    else:
        score = model.tmap.score
        model.glide(action.card, t1 + 0.1, arrive, CardPose(score.x, score.y, score.angle, False,
                                                             0.35 * len(state.defused)))
        model.glide(action.card, arrive, arrive, None)
        model.pile("score", arrive, len(state.defused))
    if action.take:
        model.row_free.append(model.place.pop(action.take)[1])
        model.place[action.take] = ("player", owner, slot)
        model.glide(action.take, t1 + 0.5, p.at, model.tmap.player_card(owner, slot))


def _clear(model: TableModel, p: Plan, state: State) -> None:
    _clear_dice(model, p.action.card, p.facts["dice"], p.at)  # type: ignore[union-attr]


def _extra_roll(model: TableModel, p: Plan, state: State) -> None:
    action: A.ExtraRoll = p.action  # type: ignore[assignment]
    player, t1 = action.player, p.facts["t1"]
    if player not in model.six:
        model.six[player] = model.take_from_bag(None, t1)
    die_id = model.six[player]
    centre = model.tmap.roll_spot(player)
    (x, y), = model.scatter(centre, 1, model.loose + model.pending)
    p.settled = model.trip(player, [(t1, centre[0], centre[1], 40.0)])
    model.tracks[f"die:{die_id}"].add(t1, None)
    model.put_loose(die_id, Die(model.colours[die_id], action.face), x, y, p.at)
    if action.face == 6:
        del model.six[player]
        model.to_bag(die_id, p.at + 1.5)


def _turn_die(model: TableModel, p: Plan, state: State) -> None:
    """Change (a number) or flip: the leader turns a rolled die to its new face."""
    die_id, t1 = p.facts["die"], p.facts["t1"]
    before: DiePose = model.tracks[f"die:{die_id}"].last()
    p.settled = model.trip(p.actor, [(t1, before.x, before.y, LOW)])  # type: ignore[arg-type]
    physical = str(state.roll_physical[p.facts["index"]])
    if physical != before.die:
        model.tracks[f"die:{die_id}"].add(p.at, DiePose(physical, before.x, before.y, before.yaw, before.turn))


def _reveal(model: TableModel, p: Plan, state: State) -> None:
    card = p.action.card  # type: ignore[union-attr]
    count = deck_count(state)
    model.pile("deck", p.start, count)
    src = model.deck_top(count + 1)
    if p.facts["kind"] == "fuse":
        model.place[card] = ("display",)
        model.glide(card, p.start, p.at, model.tmap.display, src)
        model.showing = (card, p.at)
        return
    slot = model.row_free.pop()
    model.place[card] = ("row", slot)
    model.glide(card, p.start, p.at, model.tmap.row(slot), src)


def _deal(model: TableModel, p: Plan, state: State) -> None:
    action: A.Deal = p.action  # type: ignore[assignment]
    src = model.deck_top(deck_count(state) + 1)
    if action.card in state.set_aside:
        display = model.tmap.display
        aside = sum(1 for w in model.place.values() if w[0] == "aside")
        model.place[action.card] = ("aside",)
        to = CardPose(display.x - SET_ASIDE_STEP * aside, display.y, display.angle, True, 0.35 * aside)
    else:
        slot = model.free_player_slot(action.player, False)
        model.place[action.card] = ("player", action.player, slot)
        to = model.tmap.player_card(action.player, slot)
    model.glide(action.card, p.start, p.at, to, src)


def _deal_role(model: TableModel, p: Plan, state: State) -> None:
    action: A.DealRole = p.action  # type: ignore[assignment]
    ex, ey = model.tmap.edge(action.player)
    to = model.tmap.player_card(action.player, -1)
    model.place[action.card] = ("player", action.player, -1)
    model.glide(action.card, p.start, p.at, to, CardPose(ex, ey, to.angle, True))


def _draw_spark(model: TableModel, p: Plan, state: State) -> None:
    action: A.DrawSpark = p.action  # type: ignore[assignment]
    deck = model.tmap.spark_deck
    count = state.spark_source.count
    model.pile("sparks", p.start, count)
    model.pile("spark-discard", p.start, tuple(state.spark_discard))
    slot = model.free_player_slot(action.player, True)
    model.place[action.card] = ("player", action.player, slot)
    src = CardPose(deck.x, deck.y, deck.angle, False, 0.35 * (count + 1))
    model.glide(action.card, p.start, p.at, model.tmap.player_card(action.player, slot), src)


def _done(model: TableModel, p: Plan, state: State) -> None:
    model.pending += model.loose
    model.loose = []


_HANDLERS = {
    A.Place: _place, A.Discard: _discard, A.Roll: _roll, A.RollUnused: _roll_unused, A.Return: _return,
    A.Defuse: _defuse, A.Clear: _clear, A.ExtraRoll: _extra_roll, A.Change: _turn_die, A.Flip: _turn_die,
    A.Reveal: _reveal, A.Deal: _deal, A.DealRole: _deal_role, A.DrawSpark: _draw_spark, A.Done: _done,
}


def settle(model: TableModel, state: State, t: float) -> float:
    """What follows an action by itself; returns when the table is ready for the next one."""
    ready = t
    expected = state.unused + [task[1] for task in state.tasks if task[0] in ("unused", "bag")]
    gone = []
    while len(model.pending) > len(expected):
        gone.append(model.pending.pop(0))
    if gone:  # the leader sweeps the unused dice back into the bag (a die rolled again once all have seen it)
        leader = model.leader
        landed = max((model.rolled_again.pop(i, -1e9) for i in gone), default=-1e9)
        t0 = max(t + 0.3, model.hand_free[leader] + HAND_IN, landed + UNUSED_SHOWN)
        stops = [(t0 + 0.35 * k, *model.die_xy(i), LOW) for k, i in enumerate(gone)]
        bx, by, _ = model.tmap.bag(leader)
        stops.append((stops[-1][0] + 0.45, bx, by, BAG_HEIGHT))
        for (ts, *_), die_id in zip(stops, gone):
            model.to_bag(die_id, ts)
        ready = max(ready, stops[-1][0])
        model.trip(leader, stops)  # type: ignore[arg-type]
    for card, where in list(model.place.items()):
        if where[0] == "aside" and card not in state.set_aside:  # the deck is formed: shuffled back in
            del model.place[card]
            model.glide(card, t, t + 0.5, model.deck_top(deck_count(state)))
            model.glide(card, t + 0.5, t + 0.5, None)
    for area in state.players:
        if area.role is not None and area.role.id in model.place:
            pose = model.card_pose(area.role.id)
            if pose.face_up != area.role_active:
                model.glide(area.role.id, t, t + 0.5, CardPose(pose.x, pose.y, pose.angle, area.role_active))
    if state.leader != model.leader and not state.is_terminal():
        model.leader = state.leader
        bx, by, angle = model.tmap.bag(state.leader)
        model.tracks["bag"].move(t + 0.2, t + 1.0, CardPose(bx, by, angle))
        ready = max(ready, t + 1.0)
    if not any(task[0] == "deal" for task in state.tasks):
        model.pile("deck", t, deck_count(state))
    if state.config.uses_sparks:
        model.pile("sparks", t, state.spark_source.count)
    return ready


def tidy(model: TableModel, action: A.Action, start: float) -> float:
    """Before ``action``: a fuse card on show whose effect is over goes to the discard pile. Returns the start."""
    if model.showing is None or isinstance(action, EFFECTS):
        return start
    card, since = model.showing
    model.showing = None
    t0 = max(start, since + FUSE_ON_SHOW)
    pile = model.tmap.fuse_pile
    shown = model.tracks["pile:fuse"].last() or ()
    model.glide(card, t0, t0 + 0.8, CardPose(pile.x, pile.y, pile.angle, True, 0.35 * len(shown)))
    model.glide(card, t0 + 0.8, t0 + 0.8, None)
    model.pile("fuse", t0 + 0.8, (*shown, card))
    del model.place[card]
    return t0 + 0.8 + 0.2


def initial(model: TableModel, state: State, t: float) -> None:
    """The table before the deal: the deck, the spark deck and the bag by the first leader."""
    model.pile("deck", t, deck_count(state))
    if state.config.uses_sparks:
        model.pile("sparks", t, state.spark_source.count)
    bx, by, angle = model.tmap.bag(0)
    model.tracks["bag"].add(t, CardPose(bx, by, angle))

