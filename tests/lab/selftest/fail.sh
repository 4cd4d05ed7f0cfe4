fail "deliberate failure (runner self-test)"
