#include "textflag.h"

// func minHashAVX2(sig *Signature, xs []uint32, mul, add *[NumHashes]uint32)
//
// For each x of xs and each of the 128 hash functions: sig[i] = min(sig[i], mul[i]*x + add[i]),
// eight functions a YMM register. The signature goes in two halves of 64, each kept in Y0-Y7 for the
// whole of xs.
TEXT ·minHashAVX2(SB), NOSPLIT, $0-48
	MOVQ sig+0(FP), DI
	MOVQ xs_base+8(FP), SI
	MOVQ xs_len+16(FP), CX
	MOVQ mul+32(FP), R8
	MOVQ add+40(FP), R9
	MOVQ $2, R10 // halves

half:
	VMOVDQU 0(DI), Y0
	VMOVDQU 32(DI), Y1
	VMOVDQU 64(DI), Y2
	VMOVDQU 96(DI), Y3
	VMOVDQU 128(DI), Y4
	VMOVDQU 160(DI), Y5
	VMOVDQU 192(DI), Y6
	VMOVDQU 224(DI), Y7
	MOVQ SI, R11
	MOVQ CX, R12

loop:
	TESTQ R12, R12
	JZ   done
	VPBROADCASTD (R11), Y8

#define STEP(off, reg) \
	VPMULLD off(R8), Y8, Y9 \
	VPADDD  off(R9), Y9, Y9 \
	VPMINUD Y9, reg, reg

	STEP(0, Y0)
	STEP(32, Y1)
	STEP(64, Y2)
	STEP(96, Y3)
	STEP(128, Y4)
	STEP(160, Y5)
	STEP(192, Y6)
	STEP(224, Y7)

	ADDQ $4, R11
	DECQ R12
	JMP  loop

done:
	VMOVDQU Y0, 0(DI)
	VMOVDQU Y1, 32(DI)
	VMOVDQU Y2, 64(DI)
	VMOVDQU Y3, 96(DI)
	VMOVDQU Y4, 128(DI)
	VMOVDQU Y5, 160(DI)
	VMOVDQU Y6, 192(DI)
	VMOVDQU Y7, 224(DI)
	ADDQ $256, DI
	ADDQ $256, R8
	ADDQ $256, R9
	DECQ R10
	JNZ  half
	VZEROUPPER
	RET

// The shift that brings bit 8g+k of a 32-bit half to the bottom of lane k, for the groups g = 0..3;
// and the float32 sign bit in every lane.
DATA simHashShifts<>+0(SB)/4, $0
DATA simHashShifts<>+4(SB)/4, $1
DATA simHashShifts<>+8(SB)/4, $2
DATA simHashShifts<>+12(SB)/4, $3
DATA simHashShifts<>+16(SB)/4, $4
DATA simHashShifts<>+20(SB)/4, $5
DATA simHashShifts<>+24(SB)/4, $6
DATA simHashShifts<>+28(SB)/4, $7
DATA simHashShifts<>+32(SB)/4, $8
DATA simHashShifts<>+36(SB)/4, $9
DATA simHashShifts<>+40(SB)/4, $10
DATA simHashShifts<>+44(SB)/4, $11
DATA simHashShifts<>+48(SB)/4, $12
DATA simHashShifts<>+52(SB)/4, $13
DATA simHashShifts<>+56(SB)/4, $14
DATA simHashShifts<>+60(SB)/4, $15
DATA simHashShifts<>+64(SB)/4, $16
DATA simHashShifts<>+68(SB)/4, $17
DATA simHashShifts<>+72(SB)/4, $18
DATA simHashShifts<>+76(SB)/4, $19
DATA simHashShifts<>+80(SB)/4, $20
DATA simHashShifts<>+84(SB)/4, $21
DATA simHashShifts<>+88(SB)/4, $22
DATA simHashShifts<>+92(SB)/4, $23
DATA simHashShifts<>+96(SB)/4, $24
DATA simHashShifts<>+100(SB)/4, $25
DATA simHashShifts<>+104(SB)/4, $26
DATA simHashShifts<>+108(SB)/4, $27
DATA simHashShifts<>+112(SB)/4, $28
DATA simHashShifts<>+116(SB)/4, $29
DATA simHashShifts<>+120(SB)/4, $30
DATA simHashShifts<>+124(SB)/4, $31
GLOBL simHashShifts<>(SB), RODATA|NOPTR, $128

DATA simHashSign<>+0(SB)/4, $0x80000000
DATA simHashSign<>+4(SB)/4, $0x80000000
DATA simHashSign<>+8(SB)/4, $0x80000000
DATA simHashSign<>+12(SB)/4, $0x80000000
DATA simHashSign<>+16(SB)/4, $0x80000000
DATA simHashSign<>+20(SB)/4, $0x80000000
DATA simHashSign<>+24(SB)/4, $0x80000000
DATA simHashSign<>+28(SB)/4, $0x80000000
GLOBL simHashSign<>(SB), RODATA|NOPTR, $32

// func simHashAVX2(v *[64]float32, hashes []uint64, weights []float32)
//
// For each hash h and weight w, and each bit b: v[b] += w if bit b of h is set, else -w; lane by
// lane in the order of the hashes, as the plain loop adds, so the sums are the same to the bit.
// v[8g:8g+8] is kept in Yg; bits 0-31 come from the hash's low half, 32-63 from its high half.
TEXT ·simHashAVX2(SB), NOSPLIT, $0-56
	MOVQ v+0(FP), DI
	MOVQ hashes_base+8(FP), SI
	MOVQ hashes_len+16(FP), CX
	MOVQ weights_base+32(FP), DX
	VMOVUPS 0(DI), Y0
	VMOVUPS 32(DI), Y1
	VMOVUPS 64(DI), Y2
	VMOVUPS 96(DI), Y3
	VMOVUPS 128(DI), Y4
	VMOVUPS 160(DI), Y5
	VMOVUPS 192(DI), Y6
	VMOVUPS 224(DI), Y7
	VMOVDQU simHashShifts<>+0(SB), Y12
	VMOVDQU simHashShifts<>+32(SB), Y13
	VMOVDQU simHashShifts<>+64(SB), Y14
	VMOVDQU simHashShifts<>+96(SB), Y15

loop:
	TESTQ CX, CX
	JZ    done
	VPBROADCASTD 0(SI), Y8
	VPBROADCASTD 4(SI), Y9
	VBROADCASTSS (DX), Y11
	VXORPS simHashSign<>(SB), Y11, Y11 // -w; a set bit flips it back to w

#define GROUP(half, shift, acc) \
	VPSRLVD shift, half, Y10 \
	VPSLLD  $31, Y10, Y10 \
	VPXOR   Y11, Y10, Y10 \
	VADDPS  Y10, acc, acc

	GROUP(Y8, Y12, Y0)
	GROUP(Y8, Y13, Y1)
	GROUP(Y8, Y14, Y2)
	GROUP(Y8, Y15, Y3)
	GROUP(Y9, Y12, Y4)
	GROUP(Y9, Y13, Y5)
	GROUP(Y9, Y14, Y6)
	GROUP(Y9, Y15, Y7)

	ADDQ $8, SI
	ADDQ $4, DX
	DECQ CX
	JMP  loop

done:
	VMOVUPS Y0, 0(DI)
	VMOVUPS Y1, 32(DI)
	VMOVUPS Y2, 64(DI)
	VMOVUPS Y3, 96(DI)
	VMOVUPS Y4, 128(DI)
	VMOVUPS Y5, 160(DI)
	VMOVUPS Y6, 192(DI)
	VMOVUPS Y7, 224(DI)
	VZEROUPPER
	RET
