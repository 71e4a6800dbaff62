# boards/: the board wrappers (boards/<board>/), their Vivado flow and the
# synthesis estimate (docs/boards.md). The top Makefile includes
# boards/*/rules.mk; every rule lives here, once.
#
#   make synth                          Yosys estimate of the blocks -> build/synth/report.md
#   make qp-budget                      QPs per board from the RTL's table RAMs (scripts/qp_budget.py)
#   make bitstream BOARD=vcu118|u55c [MEM=...]
#                                       Vivado, non-project flow -> build/boards/<board>/solonic_<board>.bit
#                                       MEM: the NIC's memory, the board's default (VCU118 ddr4, U55C hbm) or uram
#   make update-fw BOARD=... [ELF=...]  updatemem: a new firmware ELF into the existing bitstream
#   make program BOARD=...              load the bitstream over JTAG (Vivado hardware manager)
#   make flash BOARD=...                write the configuration flash (write_cfgmem + program_flash)
ifndef BOARDS_COMMON_RULES
BOARDS_COMMON_RULES := 1

BOARD      ?= vcu118
BOARDS     := vcu118 u55c
BOARD_OUT  := $(BUILD)/boards/$(BOARD)
BOARD_BIT  := $(BOARD_OUT)/solonic_$(BOARD).bit
BOARD_MMI  := $(BOARD_OUT)/solonic_$(BOARD).mmi
BOARD_RTL  := $(sort $(wildcard boards/common/rtl/*.sv)) $(sort $(wildcard boards/$(BOARD)/rtl/*.sv))
ELF        ?= $(BUILD)/fw/solonic.elf
VIVADO     ?= vivado
UPDATEMEM  ?= updatemem
MEM        ?=

.PHONY: synth qp-budget bitstream update-fw program flash boards-check-board boards-check-mem

synth: regs
	$(PY) boards/common/synth.py $(NIC_RTL)

qp-budget: regs
	$(PY) scripts/qp_budget.py --md $(BUILD)/synth/qp_budget.md --json $(BUILD)/synth/qp_budget.json

boards-check-board:
	@case " $(BOARDS) " in *" $(BOARD) "*) ;; \
	  *) echo "make: BOARD=$(BOARD) is not a board of solonic (one of: $(BOARDS))"; exit 2;; esac

# MEM, when given, must be one of the board's mem_options (read from its board.tcl).
boards-check-mem: boards-check-board
	@test -z "$(MEM)" || { opts=$$(printf 'source boards/$(BOARD)/board.tcl\nputs $$mem_options\n' | tclsh) && \
	  case " $$opts " in *" $(MEM) "*) ;; \
	  *) echo "make: MEM=$(MEM) is not a memory of $(BOARD) (one of: $$opts)"; exit 2;; esac; }

# One clear line and a non-zero exit when a Vivado tool is not installed.
define need_tool
	@command -v $(1) >/dev/null 2>&1 || { echo "make $@: $(1) (AMD Vivado) is not installed or not on PATH; source Vivado's settings64.sh and run again"; exit 1; }
endef

bitstream: boards-check-mem
	$(call need_tool,$(VIVADO))
	$(MAKE) --no-print-directory regs fw
	@mkdir -p $(BOARD_OUT)
	cd $(BOARD_OUT) && $(VIVADO) -mode batch -nojournal -log vivado.log \
	  -source $(abspath boards/common/tcl/build.tcl) -tclargs \
	  $(BOARD) $(abspath boards) $(abspath $(BUILD)/fw/solonic.hex) $(GIT_HASH) $(or $(MEM),default) \
	  $(abspath $(NIC_RTL) $(BOARD_RTL))
	$(PY) boards/common/mmi.py $(BOARD_OUT)/imem_brams.csv --out $(BOARD_MMI)
	@echo "bitstream: $(BOARD_BIT), memory map for updatemem: $(BOARD_MMI)"

update-fw: boards-check-board
	$(call need_tool,$(UPDATEMEM))
	@test -f $(BOARD_BIT) -a -f $(BOARD_MMI) || { echo "make update-fw: no $(BOARD_BIT) and $(BOARD_MMI) yet: run 'make bitstream BOARD=$(BOARD)' once"; exit 1; }
	@test -f $(ELF) || { echo "make update-fw: no firmware ELF $(ELF) (make fw, or ELF=path)"; exit 1; }
	$(PY) boards/common/elf2mem.py $(ELF) --out $(BOARD_OUT)/fw.mem
	$(UPDATEMEM) -force -meminfo $(BOARD_MMI) -data $(BOARD_OUT)/fw.mem -proc solonic/imem \
	  -bit $(BOARD_BIT) -out $(BOARD_OUT)/solonic_$(BOARD)_fw.bit
	@echo "update-fw: $(BOARD_OUT)/solonic_$(BOARD)_fw.bit (the bitstream with $(ELF))"

program: boards-check-board
	$(call need_tool,$(VIVADO))
	cd $(BOARD_OUT) && $(VIVADO) -mode batch -nojournal -log program.log \
	  -source $(abspath boards/common/tcl/program.tcl) -tclargs $(BOARD) jtag $(abspath $(or $(BIT),$(BOARD_BIT)))

flash: boards-check-board
	$(call need_tool,$(VIVADO))
	cd $(BOARD_OUT) && $(VIVADO) -mode batch -nojournal -log flash.log \
	  -source $(abspath boards/common/tcl/program.tcl) -tclargs $(BOARD) flash $(abspath $(or $(BIT),$(BOARD_BIT)))

endif
