#!/bin/sh
# unit_kernel.sh SRC_DIR CPU TEST [CASES] - a kernel unit test (tests/unit/TEST.c,
# a self-contained one such as test_conv_dsp) built with arm-none-eabi-gcc for
# QEMU's mps2 board of CPU (cortex-m4: an386, cortex-m7: an500) and run there:
# the kernels' assembly and the real DSP instructions against the test's plain
# reference.  printf goes to semihosting.  Exit 77 without QEMU or the toolchain.
set -e
src=$1; cpu=$2; test=$3; cases=${4:-1000}
command -v arm-none-eabi-gcc >/dev/null 2>&1 && command -v qemu-system-arm >/dev/null 2>&1 || {
  echo "skipped: arm-none-eabi-gcc or qemu-system-arm missing"; exit 77; }
case $cpu in
  cortex-m4) board=mps2-an386; flags="-mcpu=cortex-m4 -mfpu=fpv4-sp-d16" ;;
  cortex-m7) board=mps2-an500; flags="-mcpu=cortex-m7 -mfpu=fpv5-d16" ;;
  *) echo "unknown cpu $cpu"; exit 2 ;;
esac
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/write.c" <<'EOC'
/* newlib's _write to semihosting (the test's printf) */
#include "semihost.h"
int _write(int fd, const char *b, int n);
int _write(int fd, const char *b, int n)
{
    char buf[129];
    int i = 0, j, k;
    (void)fd;
    for (; i < n; i += k) {
        k = n - i < 128 ? n - i : 128;
        for (j = 0; j < k; j++)
            buf[j] = b[i + j];
        buf[k] = 0;
        te_sh_puts(buf);
    }
    return n;
}
EOC
cm=$src/targets/cortex-m
# shellcheck disable=SC2086
arm-none-eabi-gcc $flags -mthumb -mfloat-abi=hard -O2 -ffunction-sections -fdata-sections \
  -DCONV_DSP_CASES="$cases" -I"$src/src" -I"$src/runtime" -I"$src/runtime/armv7em" \
  -I"$src/tests/unit" -I"$cm" "$src/tests/unit/$test.c" "$src/tests/unit/testlib.c" \
  "$src/src/ops/conv_family.c" "$src/src/quant/quant.c" "$cm/startup.c" "$cm/semihost.c" \
  "$dir/write.c" -L"$cm" -T"$board.ld" -nostartfiles --specs=nano.specs --specs=nosys.specs \
  -Wl,--gc-sections -lm -o "$dir/t.elf"
timeout 600 qemu-system-arm -M "$board" -cpu "$cpu" -nographic -monitor none -serial none \
  -semihosting-config enable=on,target=native -kernel "$dir/t.elf"
