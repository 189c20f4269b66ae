"""Rewards for a Conductor trained by TRL or verl, from a running `baton serve-reward`.

Written by `baton export`; the Python standard library only (urllib), so it imports anywhere the
trainer runs. Each completion is sent to the reward server, which parses it as a Conductor workflow,
runs it on Baton's worker pool, grades the final answer and keeps the run as an episode: 1 right,
0.5 wrong, 0 when the workflow does not parse (the paper's reward, exactly as Baton's own GRPO loop).

Settings (environment variables):
  BATON_REWARD_URL      the server's POST /v1/reward address (default below, set by `baton export`)
  BATON_REWARD_TOKEN    its bearer token, when it was started with one
  BATON_REWARD_TIMEOUT  seconds to wait for one batch (default 900)
  BATON_REWARD_RETRIES  tries when the server cannot be reached (default 5, 2 s apart, doubling)

Infrastructure failures (a worker API down, the server's budget refusing a call) say nothing about
the Conductor's plan, so Baton keeps them out of training. A trainer cannot drop one sample, so:
  - reward_fn (TRL) and compute_score_batch (verl's batch reward manager) give a failed completion
    the mean reward of the completions of the same question that did not fail, in the same call.
    Its advantage, (r - group mean) / group std, is then 0: it pushes the policy neither way.
    When every completion of a question failed, each gets the mean of the call's other rewards
    (one value for the whole group: advantage 0 again), or 0.0 when nothing in the call succeeded.
  - compute_score (verl's per-sample reward manager) sees one completion alone and cannot do that:
    it returns score 0.0, as the paper's reference code did, with infra_error 1.0 beside it so the
    failures show in verl's metrics. Prefer compute_score_batch.
No NaN and no None reaches the trainer either way. A bad request (4xx: wrong kind, missing answer,
no token) raises RewardServerError with the server's reason: that is a setup mistake, not noise.
"""

import json
import os
import time
import urllib.error
import urllib.request

DEFAULT_URL = "http://127.0.0.1:8400/v1/reward"


class RewardServerError(RuntimeError):
    """The reward server refused the request, or could not be reached after every retry."""


def _settings():
    return (
        os.environ.get("BATON_REWARD_URL", DEFAULT_URL),
        os.environ.get("BATON_REWARD_TOKEN"),
        float(os.environ.get("BATON_REWARD_TIMEOUT", "900")),
        int(os.environ.get("BATON_REWARD_RETRIES", "5")),
    )


def score(items, step=None):
    """POSTs items [{completion, question, answer, kind, choices?}] and returns the server's details,
    one dict per item in order: reward (None on an infrastructure failure), correct, format, infraError..."""
    url, token, timeout, retries = _settings()
    body = {"items": items}
    if step is not None:
        body["step"] = int(step)
    data = json.dumps(body).encode("utf-8")
    headers = {"content-type": "application/json"}
    if token:
        headers["authorization"] = "Bearer " + token
    wait = 2.0
    for attempt in range(1, max(1, retries) + 1):
        request = urllib.request.Request(url, data=data, headers=headers, method="POST")
        try:
            with urllib.request.urlopen(request, timeout=timeout) as response:
                answer = json.loads(response.read().decode("utf-8"))
            details = answer["details"]
            if len(details) != len(items):
                raise RewardServerError("the server answered %d details for %d items" % (len(details), len(items)))
            return details
        except urllib.error.HTTPError as e:
            reason = _reason(e)
            # 503: the server is shutting down or restarting; anything else 4xx/5xx is not worth repeating.
            if e.code != 503 or attempt == retries:
                raise RewardServerError("reward server %s answered %d: %s" % (url, e.code, reason)) from None
        except (urllib.error.URLError, ConnectionError, TimeoutError) as e:
            if attempt == retries:
                raise RewardServerError("cannot reach the reward server at %s (%s); is `baton serve-reward` running?" % (url, e)) from None
        time.sleep(wait)
        wait *= 2
    raise RewardServerError("unreachable")


def _reason(error):
    try:
        return json.loads(error.read().decode("utf-8")).get("error", error.reason)
    except Exception:
        return error.reason


def completion_text(completion):
    """A completion as TRL passes it: a string, or chat messages whose assistant turns hold the text."""
    if isinstance(completion, str):
        return completion
    if isinstance(completion, dict):
        return str(completion.get("content", ""))
    return "".join(str(m.get("content", "")) for m in completion if m.get("role", "assistant") == "assistant")


def neutral_fill(rewards, groups):
    """Rewards with each None replaced by the mean of the non-None rewards of its group (advantage 0),
    else by the mean of all non-None rewards, else 0.0."""
    known = [r for r in rewards if r is not None]
    overall = sum(known) / len(known) if known else 0.0
    by_group = {}
    for r, g in zip(rewards, groups):
        if r is not None:
            by_group.setdefault(g, []).append(r)
    out = []
    for r, g in zip(rewards, groups):
        if r is not None:
            out.append(float(r))
        elif g in by_group:
            out.append(sum(by_group[g]) / len(by_group[g]))
        else:
            out.append(overall)
    return out


def _column(values, i):
    if values is None:
        return None
    value = values[i]
    return list(value) if value is not None and not isinstance(value, str) else value


def _item(completion, question, answer, kind, choices):
    item = {"completion": str(completion), "question": str(question), "answer": str(answer), "kind": str(kind)}
    # A list from datasets, or a NumPy array where a trainer went through pandas: never its truth value.
    if choices is not None and len(choices) > 0:
        item["choices"] = [str(c) for c in choices]
    return item


def reward_fn(prompts, completions, question=None, answer=None, kind=None, choices=None, **kwargs):
    """TRL GRPOTrainer reward function: the dataset's question, answer, kind and choices columns arrive
    as keyword lists; returns one float per completion."""
    if question is None or answer is None or kind is None:
        raise RewardServerError("reward_fn needs the dataset's question, answer and kind columns (as `baton export trl` writes them)")
    state = kwargs.get("trainer_state")
    step = getattr(state, "global_step", None)
    items = [
        _item(completion_text(c), question[i], answer[i], kind[i], _column(choices, i))
        for i, c in enumerate(completions)
    ]
    details = score(items, step)
    return neutral_fill([d.get("reward") for d in details], list(question))


reward_fn.__name__ = "baton_reward"


def _verl_item(solution_str, ground_truth, extra_info):
    extra = extra_info or {}
    if "question" not in extra or "kind" not in extra:
        raise RewardServerError("compute_score needs extra_info with question and kind (as `baton export verl` writes them)")
    return _item(solution_str, extra["question"], ground_truth, extra["kind"], extra.get("choices"))


def compute_score(data_source, solution_str, ground_truth, extra_info=None):
    """verl per-sample reward function (reward_model.reward_manager=naive)."""
    detail = score([_verl_item(solution_str, ground_truth, extra_info)])[0]
    infra = detail.get("reward") is None
    return {"score": 0.0 if infra else float(detail["reward"]), "infra_error": 1.0 if infra else 0.0}


def compute_score_batch(data_sources, solution_strs, ground_truths, extra_infos, **kwargs):
    """verl batch reward function (reward_model.reward_manager=batch): one request for the whole batch."""
    infos = [e or {} for e in extra_infos]
    items = [_verl_item(s, g, e) for s, g, e in zip(solution_strs, ground_truths, infos)]
    details = score(items)
    rewards = [d.get("reward") for d in details]
    filled = neutral_fill(rewards, [e.get("index", e.get("question")) for e in infos])
    return [{"score": r, "infra_error": 1.0 if raw is None else 0.0} for r, raw in zip(filled, rewards)]
