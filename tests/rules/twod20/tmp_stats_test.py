import collections
from hypothesis import given, settings, HealthCheck, strategies as st
import tests.rules.twod20.test_properties_2d20 as P

acc = collections.Counter(); ref = collections.Counter(); msgs = collections.Counter()
orig = P.play
def play(session, line, check_undo):
    ok = orig(session, line, check_undo)
    v = line.split()[0]
    (acc if ok else ref)[v] += 1
    if not ok:
        try: session.execute(line)
        except Exception as e: msgs[str(e)[:50]] += 1
    return ok
P.play = play
events = collections.Counter()
@settings(max_examples=1500, deadline=None, suppress_health_check=list(HealthCheck))
@given(session=P.sessions(), data=st.data())
def test_x(session, data):
    P.test_s3_random_commands_keep_the_invariants.hypothesis.inner_test(session, data)
    for a in session.state.fighters.values():
        for k in ("defeated","dying","dead","broken","unconscious","yielded","revived","stabilized"):
            if getattr(a,k): events[k]+=1
        for c in a.conditions: events["c:"+c]+=1
        if a.persistent: events["persistent"]+=1
def test_report():
    print("\nACC", acc); print("REF", ref); print("EVENTS", events)
    print("MSGS", msgs.most_common(25))
