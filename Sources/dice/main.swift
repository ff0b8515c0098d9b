print("dice")
