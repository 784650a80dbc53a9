
CANARY-encrypted