# Crash the guest kernel: the runner must see a test that never reported.
echo c > /proc/sysrq-trigger
